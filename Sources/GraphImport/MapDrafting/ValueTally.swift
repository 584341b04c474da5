import GraphImportJSON

/// What the sample held at one place, counted by kind: never the values themselves, so that a
/// sample of any size costs the same memory.
struct ValueTally {
    /// Values seen here, `null` included (absent keys are not values).
    var values = 0
    var nulls = 0
    var bools = 0
    /// Integers within ±2^53, which a Double holds exactly.
    var safeIntegers = 0
    /// Integers beyond ±2^53 but within 64 bits: ids that must stay `Int`, never `Double`.
    var wideIntegers = 0
    /// Integers beyond 64 bits.
    var hugeIntegers = 0
    var doubles = 0
    var strings = 0
    var objects = 0
    var arrays = 0
    /// Arrays with no element.
    var emptyArrays = 0
    /// The smallest and largest number seen (as a Double), for telling epoch times.
    var smallest = Double.infinity
    var largest = -Double.infinity
    /// The date formats every string so far is written in (`DateFormatGuess`).
    var dateFormats = DateFormatGuess.all

    /// Values that are not null.
    var present: Int { values - nulls }
    var integers: Int { safeIntegers + wideIntegers + hugeIntegers }
    var numbers: Int { integers + doubles }
    var scalars: Int { bools + numbers + strings }

    /// How many of the JSON kinds (boolean, number, string, object, array) the values take.
    var kindCount: Int {
        [bools, numbers, strings, objects, arrays].filter { $0 > 0 }.count
    }

    mutating func count(_ value: JSONValue) {
        values += 1
        switch value {
        case .null: nulls += 1
        case .bool: bools += 1
        case .number(let number):
            if let integer = number.exactInt64, number.isIntegerLiteral {
                if integer.magnitude <= 1 << 53 { safeIntegers += 1 } else { wideIntegers += 1 }
            } else if number.isIntegerLiteral {
                hugeIntegers += 1
            } else {
                doubles += 1
            }
            let double = number.double
            smallest = min(smallest, double)
            largest = max(largest, double)
        case .string(let text):
            strings += 1
            if !dateFormats.isEmpty { dateFormats = dateFormats.filter { $0.reads(text) } }
        case .object: objects += 1
        case .array(let elements):
            arrays += 1
            if elements.isEmpty { emptyArrays += 1 }
        }
    }

    /// The tallies of two places taken as one (the same entity met in two places).
    func merged(with other: ValueTally) -> ValueTally {
        var out = self
        out.values += other.values
        out.nulls += other.nulls
        out.bools += other.bools
        out.safeIntegers += other.safeIntegers
        out.wideIntegers += other.wideIntegers
        out.hugeIntegers += other.hugeIntegers
        out.doubles += other.doubles
        out.strings += other.strings
        out.objects += other.objects
        out.arrays += other.arrays
        out.emptyArrays += other.emptyArrays
        out.smallest = min(smallest, other.smallest)
        out.largest = max(largest, other.largest)
        out.dateFormats = dateFormats.filter { format in other.dateFormats.contains(format) }
        return out
    }
}
