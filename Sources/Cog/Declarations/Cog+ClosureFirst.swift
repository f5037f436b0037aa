/// The closure-first spellings of the public Cog library, `Cog<Int>.Manual({ 0 }, name: "count")`,
/// beside this package's labels-first ones, `Cog<Int>.Manual(name: "count") { 0 }`: code written
/// for either compiles unchanged. They are disfavoured so that a bare trailing closure keeps
/// choosing the labels-first form; both make the same declaration.

extension Cog {
    /// Declares an automatic value, its selector first.
    @_disfavoredOverload
    public init(
        _ selector: @escaping @MainActor (Reader<Value>) -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(name: name, equality: .given(equals), fileID: fileID, line: line, selector)
    }
}

extension Cog where Value: Equatable {
    /// Declares an automatic value gated by `==` unless `equals` says otherwise, its selector first.
    @_disfavoredOverload
    public init(
        _ selector: @escaping @MainActor (Reader<Value>) -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(name: name, equality: .givenOrEquatable(equals), fileID: fileID, line: line, selector)
    }
}

extension Cog.Manual {
    /// Declares a keyless source, its initial first.
    @_disfavoredOverload
    public init(
        _ initial: @escaping @MainActor () -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

extension Cog.Manual where Value: Equatable {
    /// Declares a keyless source gated by `==` unless `equals` says otherwise, its initial first.
    @_disfavoredOverload
    public init(
        _ initial: @escaping @MainActor () -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

extension CogBox {
    /// Declares a keyed automatic value, its selector first.
    @_disfavoredOverload
    public init(
        _ selector: @escaping @MainActor (Reader<Value>, Key) -> Value,
        equals: (@MainActor (Value, Value) -> Bool)? = nil, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(name: name, equality: .given(equals), fileID: fileID, line: line, selector)
    }
}

extension CogBox where Value: Equatable {
    /// Declares a keyed automatic value gated by `==` unless `equals` says otherwise, its selector first.
    @_disfavoredOverload
    public init(
        _ selector: @escaping @MainActor (Reader<Value>, Key) -> Value,
        equals: (@MainActor (Value, Value) -> Bool)? = nil, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(name: name, equality: .givenOrEquatable(equals), fileID: fileID, line: line, selector)
    }
}

extension CogBox.Manual {
    /// Declares a keyed source, its initial first.
    @_disfavoredOverload
    public init(
        _ initial: @escaping @MainActor (Key) -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

extension CogBox.Manual where Value: Equatable {
    /// Declares a keyed source gated by `==` unless `equals` says otherwise, its initial first.
    @_disfavoredOverload
    public init(
        _ initial: @escaping @MainActor (Key) -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

extension CogBox.Manual {
    /// Declares a keyed source whose states all start alike, its initial first.
    @_disfavoredOverload
    public init(
        _ initial: @escaping @MainActor () -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

extension CogBox.Manual where Value: Equatable {
    /// Declares a keyed source whose states all start alike gated by `==` unless `equals` says otherwise, its initial first.
    @_disfavoredOverload
    public init(
        _ initial: @escaping @MainActor () -> Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

/// The older spelling of `Cog.Manual`, kept for code written against it.
public typealias ManualCog<Value> = Cog<Value>.Manual
/// The older spelling of `Cog.Async`, kept for code written against it.
public typealias AsyncCog<Value> = Cog<Value>.Async
/// The older spelling of `CogBox.Manual`, kept for code written against it.
public typealias ManualCogBox<Value, Key: Hashable> = CogBox<Value, Key>.Manual
/// The older spelling of `CogBox.Async`, kept for code written against it.
public typealias AsyncCogBox<Value, Key: Hashable> = CogBox<Value, Key>.Async
/// The older spelling of `Cog.Projection`, kept for code written against it.
public typealias CogProjection<Value> = Cog<Value>.Projection
/// The older spelling of `CogBox.Projection`, kept for code written against it.
public typealias CogBoxProjection<Value, Key: Hashable> = CogBox<Value, Key>.Projection

extension Cog.Manual {
    /// Declares a keyless source that starts at `startingValue` (the public library's newest
    /// spelling, `Cog<Int>.Manual(0, name: "count")`); every state of it starts there. Deprecated
    /// in favour of the closure (seed §30), which makes the value anew for each state.
    @_disfavoredOverload
    @available(*, deprecated, message: "write Manual { value }: one starting value is shared by every state")
    public init(
        _ startingValue: sending Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil, fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line,
            { startingValue })
    }
}

extension Cog.Manual where Value: Equatable {
    /// Declares a keyless `Equatable` source that starts at `startingValue`, gated by `==`
    /// unless `equals` says otherwise.
    @_disfavoredOverload
    @available(*, deprecated, message: "write Manual { value }: one starting value is shared by every state")
    public init(
        _ startingValue: sending Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil, fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line,
            { startingValue })
    }
}
