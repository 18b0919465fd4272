import ArgumentParser
import Focal

// Options that several commands share, each defined once and parsed once into typed values (as
// swift-argument-parser's own examples group them with @OptionGroup).

/// `--types`: the features to find. `none` is the empty list.
struct FeatureTypesOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Comma-separated feature types: rectangle, text, face, qr, or none (default: rectangle). Text at --accuracy high takes about 0.6 s a frame.",
            valueName: "types"),
        transform: FeatureTypesOption.parse)
    var types: [FeatureType] = [.rectangle]

    static func parse(_ text: String) throws -> [FeatureType] {
        do { return try FeatureType.list(text, allowsNone: true) } catch { throw ValidationError(error.reason) }
    }
}

/// `--accuracy`: Vision's two levels.
struct AccuracyOption: ParsableArguments {
    @Option(help: ArgumentHelp("low (fast, for every frame of a live video) or high (for photos).", valueName: "accuracy"))
    var accuracy: DetectorOptions.Accuracy = .high
}

/// `-q, --quiet`.
struct QuietOption: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false
}

/// `--json PATH`.
struct JSONOutputOption: ParsableArguments {
    @Option(help: ArgumentHelp("Write the results as JSON to this file, or - for standard output.", valueName: "path"))
    var json: String?
}

/// `--filter`, repeatable: filters applied in order.
struct FiltersOption: ParsableArguments {
    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp(
            "A filter to apply: grayscale, pixellate[=BLOCK] or document-enhance. Repeatable; applied in order.",
            valueName: "filter"),
        transform: FiltersOption.parse)
    var filters: [FrameFilter] = []

    static func parse(_ text: String) throws -> FrameFilter {
        guard let filter = FrameFilter(argument: text) else {
            throw ValidationError("unknown filter '\(text)'; use grayscale, pixellate[=BLOCK] or document-enhance")
        }
        return filter
    }
}
