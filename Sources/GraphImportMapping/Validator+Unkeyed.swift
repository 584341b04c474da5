extension Validator {
    /// `unkeyed skip` leaves a to-one's link null, which a required to-one cannot be.
    mutating func checkUnkeyedRule(of member: MemberSyntax, target: String) {
        guard let rule = member.unkeyedRule, rule.value.value == .skip, !member.isList, !member.isOptional else { return }
        report(.skipOnRequiredToOne(member.name.value, target: target, at: rule.value.offset))
    }
}
