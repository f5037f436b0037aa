import CogInspectFrontEnd

/// `coginspect`: the terminal front end. Everything it does lives in `CogInspectFrontEnd`, where
/// its options and batch policy are unit-tested; this is only the entry point.
@main
enum CogInspectMain {
    static func main() {
        CogInspect.main()
    }
}
