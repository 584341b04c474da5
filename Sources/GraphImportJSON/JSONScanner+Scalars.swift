extension JSONScanner {
    /// number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT )
    ///
    /// `pos` is at the minus or first digit. Returns the literal when `materialize`, else nil.
    mutating func scanNumber(materialize: Bool) throws(JSONError) -> JSONNumber? {
        if materialize { tokenStart = pos }
        defer { tokenStart = Int.max }
        var isInteger = true
        if bytes[pos] == ASCII.minus {
            pos += 1
            guard let byte = try peek(), ASCII.isDigit(byte) else {
                throw syntaxError(JSONMessage.expectedDigit(after: "after '-'", found: describeCurrent()))
            }
        }
        if bytes[pos] == ASCII.zero {
            pos += 1
            if let byte = try peek(), ASCII.isDigit(byte) { throw syntaxError(JSONMessage.leadingZero) }
        } else {
            try skipDigits()
        }
        if try peek() == ASCII.dot {
            isInteger = false
            pos += 1
            guard let byte = try peek(), ASCII.isDigit(byte) else {
                throw syntaxError(JSONMessage.expectedDigit(after: "after the decimal point", found: describeCurrent()))
            }
            try skipDigits()
        }
        if let byte = try peek(), byte == ASCII.lowerE || byte == ASCII.upperE {
            isInteger = false
            pos += 1
            if let sign = try peek(), sign == ASCII.plus || sign == ASCII.minus { pos += 1 }
            guard let byte = try peek(), ASCII.isDigit(byte) else {
                throw syntaxError(JSONMessage.expectedDigit(after: "in the exponent", found: describeCurrent()))
            }
            try skipDigits()
        }
        guard materialize else { return nil }
        let token = UnsafeBufferPointer(start: bytes + tokenStart, count: pos - tokenStart)
        let negative = token[0] == ASCII.minus
        // Up to 18 digits cannot overflow; -0 must keep its sign, so it stays text.
        if isInteger && token.count - (negative ? 1 : 0) <= 18 && !(negative && token[1] == ASCII.zero) {
            var value: Int64 = 0
            for digit in token[(negative ? 1 : 0)...] { value = value * 10 + Int64(digit &- ASCII.zero) }
            return JSONNumber(integer: negative ? -value : value)
        }
        return JSONNumber(literal: String(decoding: token, as: UTF8.self))
    }

    /// *DIGIT, refilling the window as needed.
    @inline(__always)
    private mutating func skipDigits() throws(JSONError) {
        while true {
            while pos < end && ASCII.isDigit(bytes[pos]) { pos += 1 }
            if pos < end { return }
            guard try fill() else { return }
        }
    }

    /// false / null / true, spelled exactly; `pos` is at the first letter.
    mutating func scanLiteral(_ word: StaticString) throws(JSONError) {
        let startOffset = offset
        let count = word.utf8CodeUnitCount
        guard try ensure(count) else { throw misspelled(word, at: startOffset) }
        let letters = word.utf8Start
        // `true`, `false` and `null` have four letters or more: the first four as one word.
        assert(count >= 4, "a JSON literal has at least four letters")
        guard UnsafeRawPointer(bytes + pos).loadUnaligned(as: UInt32.self) == UnsafeRawPointer(letters).loadUnaligned(as: UInt32.self) else {
            throw misspelled(word, at: startOffset)
        }
        for index in 4..<count where bytes[pos + index] != letters[index] {
            throw misspelled(word, at: startOffset)
        }
        pos += count
    }

    private func misspelled(_ word: StaticString, at startOffset: Int) -> JSONError {
        error(.syntax, JSONMessage.invalidLiteral("\(word)"), at: startOffset)
    }
}
