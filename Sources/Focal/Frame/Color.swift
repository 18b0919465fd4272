import CFocal

/// An sRGB colour with opacity, each component 0…1.
public struct Color: Sendable, Hashable, Codable {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// 1 is opaque; drawing with less blends with what is underneath.
    public var alpha: Double

    /// A colour of the given components, each 0…1; `alpha` 1 is opaque.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A gray of the given brightness, 0 black … 1 white.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The same colour with another opacity.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Black.
    public static let black = Color(white: 0)
    /// White.
    public static let white = Color(white: 1)
    /// A clear red.
    public static let red = Color(red: 1, green: 0.23, blue: 0.19)
    /// A clear green.
    public static let green = Color(red: 0.2, green: 0.85, blue: 0.35)
    /// A clear blue.
    public static let blue = Color(red: 0.04, green: 0.52, blue: 1)
    /// Yellow.
    public static let yellow = Color(red: 1, green: 0.8, blue: 0)
    /// Orange.
    public static let orange = Color(red: 1, green: 0.58, blue: 0)
    /// Cyan.
    public static let cyan = Color(red: 0.2, green: 0.78, blue: 0.9)
}

extension Color {
    var shim: cfocal_color {
        cfocal_color(b: blue * 255, g: green * 255, r: red * 255, a: alpha * 255)
    }
}
