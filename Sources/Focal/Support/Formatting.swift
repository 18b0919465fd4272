/// `value` with a fixed number of decimal places, without Foundation's `String(format:)`.
package func decimal(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return String(value) }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
    if places > 0 {
        let fraction = Int(scaled - Double(whole) * scale)
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: max(0, places - digits.count)) + digits
    }
    return text
}
