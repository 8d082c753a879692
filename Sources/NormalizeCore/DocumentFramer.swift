package import TapRoute

/// Splits a JSON document into the records `normalize` processes, as its bytes arrive, keeping
/// at most `limit` bytes of any record.
///
/// A document that is an array yields one ``Event/element(_:index:line:column:)`` per element
/// (the element's own bytes, without the separators and the blanks around them), so that an
/// array of any length streams in bounded memory; an element over the limit is scanned to its
/// end without being kept and yields ``Event/oversizedElement(size:index:line:)``. Any other
/// document is one record: ``Event/document(_:line:column:)`` with its bytes from the first
/// to the last non-blank one — the blanks around a record do not count, as around an element
/// —, or ``Event/oversizedDocument(line:)`` as soon as they are over the limit (blanks after
/// the last non-blank byte are counted, not kept). The framer finds where an element ends by
/// counting brackets outside strings; the records are read by ``RecordReader``, and the text
/// between them is checked here (``Event/syntaxError(_:)``, which ends the document).
package struct DocumentFramer {
    /// A record, or a problem, found in the document.
    package enum Event {
        /// An array element, which starts at `line`, `column` (1-based, in bytes).
        case element(UnsafeBufferPointer<UInt8>, index: Int, line: Int, column: Int)
        /// An array element of `size` bytes, over the limit.
        case oversizedElement(size: Int, index: Int, line: Int)
        /// A document that is not an array (or is empty), starting at `line`, `column`.
        case document(UnsafeBufferPointer<UInt8>, line: Int, column: Int)
        /// A document that is not an array, over the limit.
        case oversizedDocument(line: Int)
        /// Bad text around the elements of an array (its line, column and offset in the
        /// document).
        case syntaxError(JSONParseError)
    }

    private enum State {
        case leading, single, firstElement, nextElement, inElement, afterElement, trailing, done
    }

    private let limit: Int
    private var state = State.leading
    private var line = 1  // the position of the next byte
    private var column = 1
    private var offset = 0  // the offset of the next byte, when outside a whole document
    private var trailingBlanks = 0  // blanks after a whole document's content, not kept
    private var kept: [UInt8] = []  // the current element or document
    private var size = 0  // the current element's size, kept or not
    private var startLine = 1
    private var startColumn = 1
    private var index = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var scalar = false

    /// A framer keeping at most `limit` bytes of a record.
    package init(limit: Int) {
        self.limit = limit
    }

    /// Whether the document has ended (after its last element, or at an error); later bytes
    /// need not be read.
    package var isFinished: Bool { state == .done }

    /// Reads the next bytes of the document, reporting each record or problem to `emit`.
    package mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (Event) -> Void) {
        var i = 0
        let count = chunk.count
        while i < count {
            switch state {
            case .done:
                return
            case .single:
                // Content up to the chunk's last non-blank byte; the blanks after it are kept
                // while they fit within the limit (they count only if content follows them).
                var end = count
                while end > i, Self.isBlank(chunk[end - 1]) || chunk[end - 1] == 0x0A { end -= 1 }
                if end > i {
                    if trailingBlanks > 0 || kept.count + (end - i) > limit {
                        kept = []
                        state = .done
                        emit(.oversizedDocument(line: startLine))
                        return
                    }
                    kept.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[i..<end]))
                }
                let blanks = min(count - end, Swift.max(0, limit - kept.count))
                kept.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[end..<(end + blanks)]))
                trailingBlanks += count - end - blanks
                return
            case .inElement:
                let start = i
                var ended = false
                while i < count {
                    let b = chunk[i]
                    if inString {
                        if escaped {
                            escaped = false
                        } else if b == 0x5C {
                            escaped = true
                        } else if b == 0x22 {
                            inString = false
                            ended = depth == 0
                        }
                    } else if scalar {
                        if Self.isBlank(b) || b == 0x0A || b == 0x2C || b == 0x5D {
                            ended = true
                            break  // the terminator belongs to the array
                        }
                    } else if b == 0x22 {
                        inString = true
                    } else if b == 0x7B || b == 0x5B {
                        depth += 1
                    } else if b == 0x7D || b == 0x5D {
                        depth -= 1
                        ended = depth == 0
                    }
                    advance(over: b)
                    i += 1
                    if ended { break }
                }
                keep(UnsafeBufferPointer(rebasing: chunk[start..<i]))
                if ended { endElement(emit) }
            case .leading, .firstElement, .nextElement, .afterElement, .trailing:
                let b = chunk[i]
                if Self.isBlank(b) || b == 0x0A {
                    advance(over: b)
                    i += 1
                    continue
                }
                switch state {
                case .leading:
                    if b == 0x5B {
                        state = .firstElement
                        advance(over: b)
                        i += 1
                    } else {
                        startLine = line
                        startColumn = column
                        state = .single
                    }
                case .firstElement where b == 0x5D:
                    state = .trailing
                    advance(over: b)
                    i += 1
                case .firstElement, .nextElement:
                    if b == 0x2C || b == 0x5D {
                        fail(.unexpected(found: b, expected: state == .firstElement ? .valueOrBracket : .valueAfterComma), emit)
                        return
                    }
                    startLine = line
                    startColumn = column
                    depth = 0
                    inString = false
                    escaped = false
                    scalar = !(b == 0x7B || b == 0x5B || b == 0x22)
                    size = 0
                    kept.removeAll(keepingCapacity: kept.capacity <= 1 << 20)
                    state = .inElement
                case .afterElement:
                    if b == 0x2C {
                        state = .nextElement
                    } else if b == 0x5D {
                        state = .trailing
                    } else {
                        fail(.unexpected(found: b, expected: .commaOrBracketAfterElement), emit)
                        return
                    }
                    advance(over: b)
                    i += 1
                default:  // .trailing
                    fail(.trailingData, emit)
                    return
                }
            }
        }
    }

    /// Ends the document at the end of the input.
    package mutating func finish(_ emit: (Event) -> Void) {
        switch state {
        case .leading, .single:
            state = .done
            var end = kept.count
            while end > 0, Self.isBlank(kept[end - 1]) || kept[end - 1] == 0x0A { end -= 1 }
            kept.withUnsafeBufferPointer {
                emit(.document(UnsafeBufferPointer(rebasing: $0[..<end]), line: startLine, column: startColumn))
            }
        case .inElement:
            endElement(emit)
            fail(.unexpectedEnd(.documentArray), emit)
        case .firstElement, .nextElement, .afterElement:
            fail(.unexpectedEnd(.documentArray), emit)
        case .trailing, .done:
            state = .done
        }
    }

    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
        size += bytes.count
        guard size <= limit else {
            if !kept.isEmpty { kept = [] }
            return
        }
        kept.append(contentsOf: bytes)
    }

    private mutating func endElement(_ emit: (Event) -> Void) {
        if size > limit {
            emit(.oversizedElement(size: size, index: index, line: startLine))
        } else {
            kept.withUnsafeBufferPointer { emit(.element($0, index: index, line: startLine, column: startColumn)) }
        }
        index += 1
        state = .afterElement
    }

    private mutating func fail(_ problem: JSONParseError.Problem, _ emit: (Event) -> Void) {
        state = .done
        emit(.syntaxError(JSONParseError(problem, line: line, column: column, offset: offset)))
    }

    @inline(__always)
    private mutating func advance(over byte: UInt8) {
        offset += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    /// JSON whitespace other than the newline: space, tab, CR.
    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
