/// Moves a non-Sendable value to one other thread that alone uses it until the sender waits for it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
