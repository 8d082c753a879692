import NIOCore
import Synchronization

/// Carries a request body from the task reading it to the task normalizing it, so that the
/// two overlap: the normalizer takes, at once, every piece that arrived while it was busy
/// (large batches when the body arrives fast, one piece at a time when it trickles in), and
/// the reader stops reading while more than ``capacity`` bytes wait (backpressure: memory
/// stays bounded whatever the body's size).
final class BodyQueue: Sendable {
    /// What is waiting, and who waits.
    private struct State {
        var pieces: [ByteBuffer] = []
        var bytes = 0
        var finished = false
        var failure: (any Error)?
        var taker: CheckedContinuation<Void, Never>?
        var putter: CheckedContinuation<Void, Never>?
    }

    /// The most bytes kept waiting before the reader pauses.
    let capacity: Int
    private let state = Mutex(State())

    /// A queue holding up to `capacity` bytes.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds a piece; waits while the queue is over its capacity (or until cancelled).
    func put(_ piece: ByteBuffer) async {
        let (taker, mustWait) = state.withLock { state in
            state.pieces.append(piece)
            state.bytes += piece.readableBytes
            let taker = state.taker
            state.taker = nil
            return (taker, state.bytes > capacity)
        }
        taker?.resume()
        guard mustWait else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    guard state.bytes > capacity, !Task.isCancelled else { return true }
                    state.putter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let putter = state.withLock { state in
                let putter = state.putter
                state.putter = nil
                return putter
            }
            putter?.resume()
        }
    }

    /// Ends the body, normally (`failure` nil) or with the reader's error.
    func finish(failure: (any Error)? = nil) {
        let taker = state.withLock { state in
            state.finished = true
            state.failure = failure
            let taker = state.taker
            state.taker = nil
            return taker
        }
        taker?.resume()
    }

    /// Every piece waiting, after waiting for at least one; `nil` at the end of the body.
    /// - Throws: the reader's error, once the pieces before it are taken.
    func takeAll() async throws -> [ByteBuffer]? {
        while true {
            enum Outcome {
                case pieces([ByteBuffer], CheckedContinuation<Void, Never>?)
                case end((any Error)?)
                case wait
            }
            let outcome = state.withLock { state -> Outcome in
                if !state.pieces.isEmpty {
                    let pieces = state.pieces
                    state.pieces = []
                    state.bytes = 0
                    let putter = state.putter
                    state.putter = nil
                    return .pieces(pieces, putter)
                }
                if state.finished { return .end(state.failure) }
                return .wait
            }
            switch outcome {
            case .pieces(let pieces, let putter):
                putter?.resume()
                return pieces
            case .end(let failure):
                if let failure { throw failure }
                return nil
            case .wait:
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        guard state.pieces.isEmpty, !state.finished else { return true }
                        state.taker = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }
}
