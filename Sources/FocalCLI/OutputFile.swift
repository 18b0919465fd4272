import ArgumentParser
import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The CLI's machine-readable outputs.
enum OutputFile {
    /// Writes value as JSON to standard output ("-") or, atomically, to a file.
    static func writeJSON<Value: Encodable>(_ value: Value, to destination: String, pretty: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        let data = Array(try encoder.encode(value)) + [10]
        if destination == "-" {
            print(String(decoding: data, as: UTF8.self), terminator: "")
        } else {
            try TextOutput.writeAtomically(data, to: destination)
        }
    }
}

/// Parses a comma-separated list of feature types ("rectangle,qr"), accepting those in allowed,
/// and "none" for an empty list when allowsNone.
func parseFeatureTypes(_ list: String, allowed: [FeatureType] = FeatureType.allCases, allowsNone: Bool = false) throws
    -> [FeatureType]
{
    let names = (allowed.map(\.rawValue) + (allowsNone ? ["none"] : [])).joined(separator: ", ")
    guard list.contains(where: { !$0.isWhitespace && $0 != "," }) else {
        throw ValidationError("--types is empty; use one or more of \(names), separated by commas")
    }
    return try list.split(separator: ",").compactMap { name in
        let trimmed = String(name.filter { !$0.isWhitespace })
        if allowsNone && trimmed == "none" { return nil }
        guard let type = FeatureType(rawValue: trimmed), allowed.contains(type) else {
            throw ValidationError("unknown feature type '\(name)'; use \(names)")
        }
        return type
    }
}
