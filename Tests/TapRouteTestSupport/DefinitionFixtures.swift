public import TapRoute

/// Adapter definitions the engine's tests share.
public enum DefinitionFixtures {
    /// Bird's conventions (adapters/Bird/README.md) written as a definition, to prove the
    /// format expresses a whole vendor: it must give exactly the Swift `BirdAdapter`'s answers.
    public static let birdJSON = #"""
        {
          "version": 1,
          "id": "bird",
          "summary": "Bird notification interactions, as a definition",
          "reads": ["vendorEvent"],
          "channel": "push",
          "values": {
            "actionType": {
              "path": "action.type",
              "map": {"OPEN_APP": ["openApp"], "URL": ["url", "openUrl"], "DEEP_LINK": ["deepLink", "openDeepLink"]},
              "match": "caseAndSeparators"
            }
          },
          "recognize": {"any": [
            {"oneOf": {"path": "type", "values": ["tap", "button", "received"], "match": "case"}},
            {"all": [{"isObject": "action"}, {"exists": "@actionType"}]}
          ]},
          "reject": [
            {"when": {"not": {"exists": "type"}}, "error": "invalidPayload", "at": "type",
             "message": "a Bird interaction needs a type (Tap, Button or Received)"},
            {"when": {"not": {"isString": "type"}}, "error": "invalidPayload", "at": "type",
             "message": "type must be a string, got {type|type}"},
            {"when": {"not": {"oneOf": {"path": "type", "values": ["tap", "button", "received"], "match": "case"}}},
             "error": "invalidPayload", "at": "type",
             "message": "type {type|quoted} is not a Bird interaction type (Tap, Button or Received)"},
            {"when": {"equals": {"path": "type", "to": "received", "match": "case"}}, "error": "notAnInteraction", "at": "type",
             "message": "a Bird 'Received' event reports a delivered notification, not a user interaction"},
            {"when": {"not": {"any": [{"exists": "action"}, {"isNull": "action"}]}}, "error": "invalidPayload", "at": "action",
             "message": "a Bird interaction needs an action object"},
            {"when": {"not": {"isObject": "action"}}, "error": "invalidPayload", "at": "action",
             "message": "action must be an object, got {action|type}"},
            {"when": {"all": [{"equals": {"path": "type", "to": "button", "match": "case"}}, {"not": {"exists": "action.identifier"}}]},
             "error": "invalidPayload", "at": "action.identifier",
             "message": "a Button event needs action.identifier (the button's id)"},
            {"when": {"all": [{"equals": {"path": "type", "to": "button", "match": "case"}}, {"not": {"isString": "action.identifier"}}]},
             "error": "invalidPayload", "at": "action.identifier",
             "message": "action.identifier must be a string, got {action.identifier|type}"},
            {"when": {"all": [{"equals": {"path": "type", "to": "button", "match": "case"}}, {"not": {"nonEmpty": "action.identifier"}}]},
             "error": "invalidPayload", "at": "action.identifier",
             "message": "a Button event needs a non-empty action.identifier (the button's id)"},
            {"when": {"not": {"exists": "action.type"}}, "error": "invalidPayload", "at": "action.type",
             "message": "action needs a type (OPEN_APP, URL or DEEP_LINK)"},
            {"when": {"not": {"isString": "action.type"}}, "error": "invalidPayload", "at": "action.type",
             "message": "action.type must be a string, got {action.type|type}"}
          ],
          "trigger": [
            {"when": {"equals": {"path": "type", "to": "button", "match": "case"}}, "button": {"id": "action.identifier"}},
            "tap"
          ],
          "destination": [
            {"when": {"equals": {"path": "@actionType", "to": "OPEN_APP"}}, "app": true},
            {"when": {"equals": {"path": "@actionType", "to": "URL"}},
             "url": {"firstPresent": ["action.uri", "action.url"]},
             "ifAbsent": "app",
             "problems": {
               "missing": {"code": "missingURL", "message": "URL action has no uri; the app is opened"},
               "empty": {"code": "missingURL", "message": "URL action.{@key} is empty; the app is opened"},
               "wrongType": {"code": "invalidURL", "message": "URL action.{@key} is {@value|type}, not a string; the app is opened"}
             },
             "behavior": {"opensURL": true, "followsEventOverride": false}},
            {"when": {"equals": {"path": "@actionType", "to": "DEEP_LINK"}},
             "url": {"firstPresent": ["action.uri", "action.url"]},
             "ifAbsent": "app",
             "problems": {
               "missing": {"code": "missingURL", "message": "DEEP_LINK action has no uri; the app is opened"},
               "empty": {"code": "missingURL", "message": "DEEP_LINK action.{@key} is empty; the app is opened"},
               "wrongType": {"code": "invalidURL", "message": "DEEP_LINK action.{@key} is {@value|type}, not a string; the app is opened"}
             }},
            {"app": true,
             "warn": {"code": "unknownActionType", "message": "action type {action.type|quoted} is not OPEN_APP, URL or DEEP_LINK; the app is opened"}}
          ],
          "payload": {
            "from": "payload",
            "text": {"keepAs": "value"},
            "broken": {"keepAs": "value", "warn": {"code": "payloadNotJSON",
              "message": "payload starts like a JSON object but does not parse; it is kept as {{\"value\": …}}"}},
            "tooDeep": {"keepAs": "value", "warn": {"code": "payloadNotJSON",
              "message": "payload is a JSON string that {@clause}; it is kept as {{\"value\": …}}"}},
            "inPlace": {"warn": {"code": "payloadNotString",
              "message": "payload is an object; Bird delivers the template's custom payload as a string, so it was decoded before it reached TapRoute"}},
            "wrongType": {"reject": {"error": "invalidPayload",
              "message": "payload must be a string (the template's custom payload), got {@value|type}"}}
          }
        }
        """#

    /// The Bird definition, compiled.
    public static func bird() throws -> AdapterDefinition {
        try AdapterDefinition(json: JSONValue(parsing: birdJSON))
    }
}
