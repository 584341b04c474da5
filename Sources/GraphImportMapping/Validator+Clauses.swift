extension Validator {
    /// An attribute line with its clauses checked: values fit the type, `null`/`missing` do not
    /// store null into a required attribute, checks name known validators, a derived attribute
    /// has nothing but its template, and the template names plain attributes of the entity.
    mutating func resolveAttribute(_ member: MemberSyntax, type: ValueType, in entity: EntitySyntax, location: SourceLocation)
        -> Attribute
    {
        let name = member.name.value
        // Without `<-`, a value the engine sets or builds has no JSON source; otherwise the shorthand's path is the name.
        let hasNoSource = member.defaultValue != nil || member.always != nil || member.onChange != nil || member.derived != nil
        var attribute = Attribute(
            name: name, source: member.path ?? (hasNoSource ? nil : KeyPath([.key(name)])), type: type,
            isOptional: member.isOptional, converters: member.converters.map { resolve($0) }, location: location,
            pathLocation: member.pathOffset.map { source.location(at: $0) })
        attribute.defaultValue = member.defaultValue.map { fit($0, type) }
        attribute.always = member.always.map { fit($0, type) }
        attribute.onChange = member.onChange.map { fit($0, type) }
        if let clause = member.nullRule {
            attribute.nullRule = clause.value.value
            switch clause.value.value {
            case .store where !member.isOptional: report(.nullOnRequired(name, rule: "null store", at: clause.value.offset))
            case .value(let literal): attribute.nullRule = .value(fit(literal, clause: clause.keyword.value, type, at: clause.value.offset))
            default: break
            }
        }
        if let clause = member.missingRule {
            attribute.missingRule = clause.value.value
            switch clause.value.value {
            case .null where !member.isOptional: report(.nullOnRequired(name, rule: "missing null", at: clause.value.offset))
            case .value(let literal):
                attribute.missingRule = .value(fit(literal, clause: clause.keyword.value, type, at: clause.value.offset))
            default: break
            }
        }
        if attribute.source == nil, member.derived == nil {
            for keyword in [member.nullRule?.keyword, member.missingRule?.keyword].compactMap({ $0 }) {
                report(.ruleWithoutSource(name, clause: keyword.value, at: keyword.offset))
            }
        }
        attribute.checks = member.checks.map { check in
            let call = resolve(check.call, asCheck: true)
            return Check(name: call.name, arguments: call.arguments, message: check.message, location: call.location)
        }
        if let derived = member.derived {
            if let arrow = member.arrowOffset { report(.derivedWithPath(name, at: arrow)) }
            for keyword in member.attributeClauseKeywords where keyword.value != Keyword.check && keyword.value != Keyword.derived {
                report(.derivedWithClause(name, clause: keyword.value, at: keyword.offset))
            }
            checkReferences(of: derived.value.value, in: entity)
            attribute.derived = Template(
                text: derived.value.value.text, parts: derived.value.value.parts, location: source.location(at: derived.value.offset))
        }
        return attribute
    }

    /// A `default`, `always` or `onchange` value checked against the type: `now` only for a Date,
    /// `run` only for an Int, a literal as `fit(_:clause:_:at:)` says.
    private mutating func fit(_ clause: ClauseSyntax<ValueExpression>, _ type: ValueType) -> ValueExpression {
        let value = clause.value
        switch value.value {
        case .now where type != .date, .run where type != .int:
            report(.valueDoesNotFit(clause.keyword.value, value.value, type: type, at: value.offset))
            return value.value
        case .now, .run: return value.value
        case .literal(let literal): return .literal(fit(literal, clause: clause.keyword.value, type, at: value.offset))
        }
    }

    /// A literal checked against the type (Int: an integer; Double: a number, an integer becoming
    /// `.double`; Bool; String, URL, Data: a string; Date: an ISO 8601 string; JSON: anything).
    private mutating func fit(_ literal: Literal, clause: String, _ type: ValueType, at offset: Int) -> Literal {
        switch (type, literal) {
        case (.int, .int), (.double, .double), (.bool, .bool), (.string, .string), (.url, .string), (.data, .string), (.json, _):
            return literal
        case (.double, .int(let value)): return .double(Double(value))
        case (.date, .string(let text)):
            if !Self.isISO8601(text) { report(.notISODate(clause, text, at: offset)) }
            return literal
        default:
            report(.valueDoesNotFit(clause, .literal(literal), type: type, at: offset))
            return literal
        }
    }

    /// `YYYY-MM-DD`, optionally followed by `T` (or a space), `HH:MM`, `:SS`, a fraction, and `Z`,
    /// `±HH:MM` or `±HHMM`: the forms the `iso8601` converter reads.
    static func isISO8601(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int, in range: ClosedRange<Int>) -> Bool {
            guard index + digits <= bytes.count, bytes[index..<(index + digits)].allSatisfy(ASCII.isDigit) else { return false }
            let value = bytes[index..<(index + digits)].reduce(0) { $0 * 10 + Int($1 - ASCII.zero) }
            index += digits
            return range.contains(value)
        }
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard number(4, in: 0...9999), take(ASCII.minus), number(2, in: 1...12), take(ASCII.minus), number(2, in: 1...31) else {
            return false
        }
        if index == bytes.count { return true }
        guard take(ASCII.upperT) || take(ASCII.space), number(2, in: 0...23), take(ASCII.colon), number(2, in: 0...59) else {
            return false
        }
        if take(ASCII.colon) {
            guard number(2, in: 0...60) else { return false }
            if take(ASCII.dot) {
                let start = index
                while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
                guard index > start else { return false }
            }
        }
        if take(ASCII.upperZ) { return index == bytes.count }
        if take(ASCII.plus) || take(ASCII.minus) {
            guard number(2, in: 0...23) else { return false }
            _ = take(ASCII.colon)
            guard number(2, in: 0...59) else { return false }
        }
        return index == bytes.count
    }

    /// A template's `{name}`s must be attributes of the same entity that are not derived themselves.
    private mutating func checkReferences(of template: TemplateSyntax, in entity: EntitySyntax) {
        for reference in template.references {
            guard let member = entity.members.first(where: { $0.name.value == reference.value }) else {
                if entity.brokenMemberNames.contains(reference.value) { continue }
                let names = entity.members.filter { $0.valueType != nil && $0.derived == nil }.map(\.name.value)
                let suggestion = closestMatch(to: reference.value, among: names)
                report(.templateNamesNothing(reference.value, entity: entity.name.value, suggestion: suggestion, at: reference.offset))
                continue
            }
            if member.valueType == nil {
                report(.templateNamesRelationship(reference.value, at: reference.offset))
            } else if member.derived != nil {
                report(.templateNamesDerived(reference.value, at: reference.offset))
            }
        }
    }
}

extension MemberSyntax {
    /// The keywords of the attribute-only clauses this member has, in source order.
    var attributeClauseKeywords: [Located<String>] {
        let keywords =
            [defaultValue?.keyword, always?.keyword, onChange?.keyword, nullRule?.keyword, missingRule?.keyword]
            + [derived?.keyword] + checks.map { Located(value: Keyword.check, offset: $0.keywordOffset) }
        return keywords.compactMap { $0 }.sorted { $0.offset < $1.offset }
    }
}
