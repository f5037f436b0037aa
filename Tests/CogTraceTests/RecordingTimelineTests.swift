import Cog
import CogTesting
import Foundation
import Testing

@testable import CogTrace

@Suite("Recording timeline and run ids")
struct RecordingTimelineTests {
    @Test func aVirtualClockGivesWholeNanosecondOffsetsFromWhenRecordingBegan() {
        let clock = TestClock()
        _ = clock.advance(by: .seconds(5))
        let timeline = RecordingTimeline(.virtual(clock))
        #expect(timeline.isVirtual)
        #expect(timeline.now() == 0)
        _ = clock.advance(by: .microseconds(1_500) + .nanoseconds(7))
        #expect(timeline.now() == 1_500_007)
        _ = clock.advance(by: .seconds(2))
        #expect(timeline.now() == 2_001_500_007)
        // A trace keeps whole microseconds, truncated as the 128-bit form used to.
        #expect(timeline.microseconds(timeline.now()) == 2_001_500)
        #expect(timeline.microseconds(999) == 0)
    }

    @Test func theMonotonicClockNeverRunsBackwards() {
        let timeline = RecordingTimeline(.monotonic)
        #expect(!timeline.isVirtual)
        var last = timeline.now()
        #expect(last >= 0)
        for _ in 0..<1_000 {
            let now = timeline.now()
            #expect(now >= last)
            last = now
        }
    }

    @Test func runIDsAreDistinctVersionFourUUIDsInLowercase() throws {
        let ids = (0..<64).map { _ in CogRecorder.randomRunID() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parsed = try #require(UUID(uuidString: id))
            #expect(parsed.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4", "version nibble of \(id)")
            #expect("89ab".contains(characters[19]), "variant of \(id)")
        }
    }

    /// The run id's text is formatted by hand: every byte value gives the digits `UUID` gives.
    @Test func uuidTextSpellsEveryByteAsUUIDDoes() {
        for first in stride(from: 0, to: 256, by: 16) {
            let bytes = (0..<16).map { UInt8((first + $0 * 17) % 256) }
            let text = bytes.withUnsafeBytes { CogRecorder.uuidText($0) }
            let uuid = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            #expect(text == uuid.uuidString.lowercased())
        }
    }
}
