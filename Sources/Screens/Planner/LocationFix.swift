import Foundation
import MapGeometry
import MapRender

extension LocationFix {
    /// How good the fix is, by the app's thresholds (`ACCURACY_OK`, `ACCURACY_BEST`).
    public var quality: Quality {
        if accuracyMetres <= Quality.bestAccuracyMetres { return .best }
        if accuracyMetres <= Quality.okAccuracyMetres { return .ok }
        return .bad
    }

    /// The zoom to show the fix at: 16 at 200 m or better, one level lower for each doubling
    /// of the accuracy beyond that (400 m gives 15), as the app's `MAX_ZOOM_LOCATION` rule;
    /// never below zoom 0.
    public var cameraZoom: Double {
        var zoom = 16.0
        var accuracy = 200.0
        while accuracy < accuracyMetres, zoom > 0 {
            zoom -= 1
            accuracy *= 2
        }
        return zoom
    }

    /// The app's accuracy grades; `ok` and `best` count as a successful geolocation.
    public enum Quality: String, Hashable, Sendable, Codable {
        case bad, ok, best

        /// `ACCURACY_OK`: a fix this good or better is a success.
        public static let okAccuracyMetres = 100.0
        /// `ACCURACY_BEST`.
        public static let bestAccuracyMetres = 20.0

        /// How long listening continues after a fix of this quality
        /// (`LOC_OFF_DELAY_BAD`, `LOC_OFF_DELAY_OK`, `LOC_OFF_DELAY_BEST`), in seconds.
        public var switchOffDelay: TimeInterval {
            switch self {
            case .bad: 30
            case .ok: 3
            case .best: 1
            }
        }

        public var isSuccess: Bool { self != .bad }
    }
}
