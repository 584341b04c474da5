/// The date formats `init` recognises in strings, each with the converter that reads it; a
/// string attribute becomes a `Date` only when every one of its values reads in one format.
///
/// The recognisers are the converters' own parsers, so a guessed converter reads every value of
/// the sample it was guessed from.
enum DateFormatGuess: CaseIterable, Equatable {
    /// `2011-04-22T13:33:48Z`, `2019-01-01`: the extended form only (a bare `20110422` is as
    /// likely a number written as text).
    case iso8601
    /// Twitter's `Sat Jan 23 20:19:45 +0000 2016`.
    case twitter
    /// HTTP's `Sun, 06 Nov 1994 08:49:37 GMT`.
    case rfc1123

    static let all = DateFormatGuess.allCases

    private static let twitterPattern = try! DatePattern("EEE MMM dd HH:mm:ss Z yyyy")

    /// The converter a map writes for the format.
    var converter: String {
        switch self {
        case .iso8601: "iso8601"
        case .twitter: "date(\"EEE MMM dd HH:mm:ss Z yyyy\")"
        case .rfc1123: "rfc1123"
        }
    }

    /// The format as a person names it, for the draft's comment.
    var name: String {
        switch self {
        case .iso8601: "ISO 8601"
        case .twitter: "Twitter's"
        case .rfc1123: "RFC 1123"
        }
    }

    func reads(_ text: String) -> Bool {
        switch self {
        case .iso8601:
            let bytes = text.utf8
            guard bytes.count >= 10, bytes.dropFirst(4).first == UInt8(ascii: "-") else { return false }
            return (try? ISO8601Parser.parse(text)) != nil
        case .twitter: return (try? DateFormatGuess.twitterPattern.parse(text)) != nil
        case .rfc1123: return (try? StandardConverters.rfc1123Pattern.parse(text)) != nil
        }
    }
}
