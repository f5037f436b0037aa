/// How long a manual source's state lives.
nonisolated public enum ManualCogLifetime: Sendable, Equatable {
    /// For the runtime's whole life: the default, because releasing a source loses its value.
    case app
    /// Released when nothing uses it once `grace` has passed (the runtime's default grace when
    /// nil); a later read starts over at the declared initial value. `resetToInitial` must be
    /// true: a released source cannot keep its value, so `false` fails at declaration.
    case whileObserved(resetToInitial: Bool, grace: Duration? = nil)

    /// Traps for a lifetime no source can honour; called when a declaration is made.
    func validate(label: String) {
        if case .whileObserved(resetToInitial: false, _) = self {
            fatalError(
                "Cog: '\(label)' declares whileObserved(resetToInitial: false); "
                    + "a released source cannot keep its value, so only resetToInitial: true is accepted")
        }
    }
}
