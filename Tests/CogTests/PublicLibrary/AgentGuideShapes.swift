import Cog
import Foundation

// Every code shape of the public Cog library's agent guide (docs/swift/agent-guide.md in
// skeswa/cog), written here with this file's own small domain so each compiles against this
// runtime: declarations, derived and keyed values, async loads and the status lens, ops, composed
// ops, assembly, mechanisms with install-then-watch persistence, a gated scope with a ticking
// task, navigation ops, and tests. SwiftUI views and bindings are left out: Linux has no SwiftUI.
// The guide's todo recipes and its hike timer as `scope` live in Recipes/ (AgentGuideRecipeTests);
// the timer here is spelled with `whenever`, as the guide now spells it.

// MARK: Declaring facts and deriving values

enum ShelfFilter: String, Sendable { case all, unread, read }

struct BookID: Hashable, Sendable, Codable { let rawValue: String }

private let _shelfFilterCog = Cog<ShelfFilter>.Manual { .all }
let shelfFilterCog = _shelfFilterCog.readOnly

private let _bookIDsCog = Cog<[BookID]>.Manual { [] }
private let _bookTitleCogs = CogBox<String, BookID>.Manual { "" }
private let _bookIsReadCogs = CogBox<Bool, BookID>.Manual { false }
private let _draftTitleCog = Cog<String>.Manual { "" }

let bookIDsCog = _bookIDsCog.readOnly
let bookTitleCogs = _bookTitleCogs.readOnly
let bookIsReadCogs = _bookIsReadCogs.readOnly
let draftTitleCog = _draftTitleCog.readOnly

/// How many books are still unread.
let unreadBookCountCog = Cog<Int> { c in
    let bookIDs = c[bookIDsCog]
    return bookIDs.reduce(into: 0) { count, id in
        let bookIsRead = c[bookIsReadCogs[id]]
        if !bookIsRead { count += 1 }
    }
}

private let _favouriteBookIDsCog = Cog<Set<BookID>>.Manual { [] }
let favouriteBookIDsCog = _favouriteBookIDsCog.readOnly

/// Whether one book is a favourite, keyed so one toggle updates one row.
let isFavouriteBookCogs = CogBox<Bool, BookID> { c, bookID in
    let favouriteBookIDs = c[favouriteBookIDsCog]
    return favouriteBookIDs.contains(bookID)
}

/// A note per screen that resets when no screen shows it (the guide's whileObserved source).
let screenNoteCogs = CogBox<String, BookID>.Manual({ "" }, lifetime: .whileObserved(resetToInitial: true))

// MARK: Loading from outside the process

struct Review: Equatable, Sendable { let stars: Int }

/// A capability: closure fields and a live value, so tests pass their own.
struct ReviewService: Sendable {
    var review: @Sendable (BookID) async throws -> Review
    static let live = ReviewService { _ in Review(stars: 4) }
}

private let _reviewServiceCog = Cog<ReviewService>.Manual { .live }
let reviewServiceCog = _reviewServiceCog.readOnly

let bookReviewCogs = CogBox<Review?, BookID>.Async(default: nil) { c, bookID in
    let reviewService = c[reviewServiceCog]
    return .run { @concurrent in
        try await reviewService.review(bookID)
    }
}

// MARK: Ops

extension CogOps {
    /// Selects the shelf filter.
    func selectShelfFilter(_ filter: ShelfFilter) {
        turn(_shelfFilterCog, to: filter)
    }

    /// Types into the draft title.
    func typeDraftTitle(_ title: String) {
        turn(_draftTitleCog, to: title)
    }

    /// Shelves the draft as a new book and clears the draft, in one turn.
    func shelveBook(id: BookID = BookID(rawValue: UUID().uuidString)) {
        turn { c in
            let draftTitle = c[_draftTitleCog].trimmingCharacters(in: .whitespaces)
            guard !draftTitle.isEmpty else { return }
            c[_bookIDsCog] = c[_bookIDsCog] + [id]
            c[_bookTitleCogs[id]] = draftTitle
            c[_bookIsReadCogs[id]] = false
            c[_draftTitleCog] = ""
        }
    }

    /// Marks a book read and clears the draft: another op joins the same turn.
    func finishBook(_ id: BookID) {
        turn { c in
            c[_bookIsReadCogs[id]] = true
            self.typeDraftTitle("")
        }
    }

    /// Demands a fresh review for one book.
    func refreshReview(for id: BookID) {
        refresh(bookReviewCogs[id])
    }

    /// Puts a saved shelf in place, as a mechanism does at start-up.
    func installShelf(_ shelf: ShelfSnapshot) {
        turn { c in
            c[_bookIDsCog] = shelf.books.map(\.id)
            for book in shelf.books { c[_bookTitleCogs[book.id]] = book.title }
            c[_shelfFilterCog] = shelf.filter
        }
    }
}

// MARK: Persistence: install, then watch

struct ShelfSnapshot: Equatable, Sendable {
    struct Book: Equatable, Sendable {
        let id: BookID
        let title: String
    }
    var books: [Book]
    var filter: ShelfFilter

    static let fixture = ShelfSnapshot(
        books: [Book(id: BookID(rawValue: "dune"), title: "Dune")], filter: .unread)
}

let shelfSnapshotCog = Cog<ShelfSnapshot> { c in
    let bookIDs = c[bookIDsCog]
    let books = bookIDs.map { id in ShelfSnapshot.Book(id: id, title: c[bookTitleCogs[id]]) }
    let shelfFilter = c[shelfFilterCog]
    return ShelfSnapshot(books: books, filter: shelfFilter)
}

/// The store capability: read once at assembly, then only written.
struct ShelfStore {
    var load: () -> ShelfSnapshot?
    var save: (ShelfSnapshot) -> Void
}

struct ShelfMechanism: Mechanism {
    let store: ShelfStore

    func operate(_ m: MechanismController) {
        let snapshot = store.load() ?? ShelfSnapshot(books: [], filter: .all)
        m.installShelf(snapshot)
        m.watch(shelfSnapshotCog, initial: .skip, name: "persistence") { _, snapshot in
            store.save(snapshot)
        }
    }
}

// MARK: A gated scope with a ticking task

private let _isReadingCog = Cog<Bool>.Manual { false }
let isReadingCog = _isReadingCog.readOnly
private let _readingSecondsCog = Cog<Int>.Manual { 0 }
let readingSecondsCog = _readingSecondsCog.readOnly

extension CogOps {
    func startReading() { turn(_isReadingCog, to: true) }
    func stopReading() { turn(_isReadingCog, to: false) }
    func resetReadingTimer() { turn(_readingSecondsCog, to: 0) }
    func tickReadingTimer() { turn { c in c[_readingSecondsCog] += 1 } }
}

struct ReadingTimerMechanism: Mechanism {
    var clock: any Clock<Duration> = ContinuousClock()

    func operate(_ m: MechanismController) {
        m.whenever(isReadingCog, name: "readingTimer") { s in
            s.resetReadingTimer()
            s.task(name: "tick") { [weak s] in
                while true {
                    try await clock.sleep(for: .seconds(1))
                    guard let s else { return }
                    await s.tickReadingTimer()
                }
            }
        }
    }
}

// MARK: Navigation from state

enum LibraryTab: Hashable, Sendable { case shelf, search }
enum LibraryRoute: Hashable, Sendable {
    case author(String)
    case book(BookID)
}
enum LibrarySheet: Hashable, Sendable { case settings }
enum LibraryLink { case book(BookID, author: String) }

private let _selectedLibraryTabCog = Cog<LibraryTab>.Manual { .shelf }
private let _libraryPathCogs = CogBox<[LibraryRoute], LibraryTab>.Manual { [] }
private let _librarySheetCog = Cog<LibrarySheet?>.Manual { nil }
let selectedLibraryTabCog = _selectedLibraryTabCog.readOnly
let libraryPathCogs = _libraryPathCogs.readOnly
let librarySheetCog = _librarySheetCog.readOnly

extension CogOps {
    /// Selects a tab; selecting the current one pops it to its root.
    func selectLibraryTab(_ tab: LibraryTab) {
        turn { c in
            if c[_selectedLibraryTabCog] == tab {
                c[_libraryPathCogs[tab]] = []
            } else {
                c[_selectedLibraryTabCog] = tab
            }
        }
    }

    /// Opens a link by writing the whole destination in one turn.
    func open(_ link: LibraryLink) {
        switch link {
        case .book(let id, let author):
            turn { c in
                c[_selectedLibraryTabCog] = .shelf
                c[_libraryPathCogs[LibraryTab.shelf]] = [.author(author), .book(id)]
                c[_librarySheetCog] = nil
            }
        }
    }
}
