import FuzzSupport
import TapRoute

/// Bytes → envelope → Interaction or error, through the whole built-in registry with the
/// embedded default configuration, exactly as `normalize` treats one JSON Lines record.
///
/// Beyond "no crash": the JSON parser's output survives writing and parsing again; an error
/// is typed with a message and a `$` path; an Interaction passes ``FuzzSupport``'s checks
/// (safe destinations, JSON round trip, same answer twice); and the record path
/// (`normalize(record:)`) agrees with parsing then `normalize(json:)`.
@_cdecl("LLVMFuzzerTestOneInput")
public func registryFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let record = FuzzSupport.bytes(data, size)
    let registry = FuzzSupport.registry
    let parsed = Result { () throws(NormalizationError) -> JSONValue in try registry.parse(record: record) }
    let viaRecord = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(record: record) }
    switch parsed {
    case .failure(let error):
        FuzzSupport.checkError(error)
        guard error.code == .invalidJSON || error.code == .limitExceeded else {
            FuzzSupport.fail("parsing a record failed with \(error.code), not invalidJSON or limitExceeded: \(error)")
        }
        if case .failure(let again) = viaRecord, again == error { return 0 }
        FuzzSupport.fail("normalize(record:) disagrees with parse(record:): \(viaRecord) / \(error)")
    case .success(let value):
        FuzzSupport.checkJSONRoundTrip(value)
        let interaction = FuzzSupport.normalizeChecked(value)
        switch viaRecord {
        case .success(let other) where other == interaction: break
        case .failure where interaction == nil: break
        default: FuzzSupport.fail("normalize(record:) disagrees with normalize(json:): \(viaRecord) / \(String(describing: interaction))")
        }
        // The envelope's event, when it is one, normalizes as the JSON did.
        if let event = try? InputEvent(json: value) {
            let direct = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(event) }
            if (try? direct.get()) != interaction {
                FuzzSupport.fail("normalize(InputEvent) disagrees with normalize(json:)")
            }
        }
    }
    return 0
}
