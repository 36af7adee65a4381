import Foundation
import MapRender

/// What a finger or the mouse feels over the explorable frame, in HapticMap's manner: each
/// kind of element its own tone (Web Audio) and its own vibration (`navigator.vibrate`), told
/// apart by pitch, timbre and length, and by the number and spacing of pulses.
enum ExplorerTone: String, CaseIterable, Encodable {
    /// Lines along the ground: the route, a stage, transit lines, paths.
    case route
    /// Things standing at a point: the start, the finish, markers, photos, your location, the vehicle.
    case marker
    case stop
    /// Water in the drawn frame (`WaterMask`).
    case water
    /// The chrome's controls, the attribution and captions, dialogs.
    case control
    /// The map with nothing drawn on it.
    case background

    init(_ kind: ElementKind) {
        switch kind.spokenKind {
        case .route, .stage, .line, .path: self = .route
        case .start, .finish, .marker, .photo, .location, .vehicle: self = .marker
        case .stop: self = .stop
        case .basemap: self = .background
        default: self = .control
        }
    }

    /// The tone's pitch in hertz: a fifth and octaves apart, so no two are confused.
    var frequency: Double {
        switch self {
        case .route: 440
        case .marker: 880
        case .stop: 660
        case .water: 220
        case .control: 1320
        case .background: 131
        }
    }

    /// The oscillator's wave (`OscillatorNode.type`).
    var wave: String {
        switch self {
        case .route, .water, .control, .background: "sine"
        case .marker: "triangle"
        case .stop: "square"
        }
    }

    /// How long the tone sounds.
    var seconds: Double {
        switch self {
        case .route: 0.12
        case .marker: 0.08
        case .stop: 0.06
        case .water: 0.2
        case .control: 0.03
        case .background: 0.04
        }
    }

    /// How loud it starts, 0 to 1; the background barely.
    var volume: Double { self == .background ? 0.05 : 0.2 }

    /// The vibration: milliseconds on, off, on…; none on the background.
    var pattern: [Int] {
        switch self {
        case .route: [50]
        case .marker: [25, 50, 25]
        case .stop: [15, 30, 15, 30, 15]
        case .water: [8, 16, 8, 16, 8, 16, 8]
        case .control: [10]
        case .background: []
        }
    }

    enum CodingKeys: String, CodingKey {
        case frequency, wave, seconds, volume, pattern
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(frequency, forKey: .frequency)
        try container.encode(wave, forKey: .wave)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(volume, forKey: .volume)
        try container.encode(pattern, forKey: .pattern)
    }
}

/// What the page's script reads: the moves, the tones and the water.
struct ExplorerData: Encodable {
    var plan: ExplorerPlan
    var water: WaterMask?
    var tones: [String: ExplorerTone] { Dictionary(uniqueKeysWithValues: ExplorerTone.allCases.map { ($0.rawValue, $0) }) }

    enum CodingKeys: String, CodingKey {
        case plan, water, tones
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(plan, forKey: .plan)
        try container.encode(water, forKey: .water)
        try container.encode(tones, forKey: .tones)
    }

    /// As JSON inside a `<script>` element: `/` is escaped, so no `</script>` can appear.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Strings, numbers and arrays of them always encode.
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The explorable frame's style sheet and script, written into each page: no framework and
/// nothing fetched, so the page works from a file with no network.
enum ExplorerScript {
    static let style = """
        body { font: 16px/1.4 system-ui, sans-serif; margin: 1rem; }
        .explorer { position: relative; display: inline-block; touch-action: none; }
        .explorer img { display: block; }
        .focus-ring { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
        .focus-ring path { fill: none; stroke-linejoin: round; }
        .focus-ring .outer { stroke: #000; stroke-width: 7px; }
        .focus-ring .inner { stroke: #FFE500; stroke-width: 3px; }
        area:focus { outline: 3px solid #000; }
        .announcer { min-height: 1.4em; font-weight: bold; }
        table { border-collapse: collapse; margin-top: 1rem; }
        th, td { border: 1px solid #999; padding: 0.2rem 0.5rem; text-align: start; }
        @media (forced-colors: active) {
          .focus-ring .outer { stroke: Canvas; }
          .focus-ring .inner { stroke: Highlight; }
        }
        """

    static let script = """
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("explorer-data").textContent);
          var explorer = document.getElementById("explorer");
          var image = document.getElementById("frame-image");
          var ring = document.getElementById("focus-ring");
          var announcer = document.getElementById("announcer");
          var plan = data.plan;
          var pointOfArea = {};
          plan.points.forEach(function (point, index) { pointOfArea["area-" + point.element] = index; });
          var arrows = { ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3 };

          // Keys: the arrows move to the nearest element that way, Home to the start; each move
          // is said in the live region. From anything but an element on the map, moves start
          // at the map's centre.
          explorer.addEventListener("keydown", function (event) {
            var active = document.activeElement;
            var from = active && Object.prototype.hasOwnProperty.call(pointOfArea, active.id) ? plan.points[pointOfArea[active.id]] : plan.centre;
            var target, sentence;
            if (Object.prototype.hasOwnProperty.call(arrows, event.key)) {
              var direction = arrows[event.key];
              target = from.moves[direction];
              sentence = target < 0 ? plan.nothing[direction] : from.says[direction];
            } else if (event.key === "Home" && plan.home >= 0) {
              target = plan.home;
              sentence = from.home;
            } else {
              return;
            }
            event.preventDefault();
            if (target >= 0) document.getElementById("area-" + plan.points[target].element).focus();
            announcer.textContent = sentence;
          });

          // The focus ring, around the focused element's area in the image's own pixels.
          function outline(area) {
            var c = area.coords.split(",").map(Number);
            if (area.shape === "rect") return "M" + c[0] + " " + c[1] + "H" + c[2] + "V" + c[3] + "H" + c[0] + "Z";
            if (area.shape === "circle") {
              var r = c[2];
              return "M" + (c[0] - r) + " " + c[1] + "a" + r + " " + r + " 0 1 0 " + 2 * r + " 0a" + r + " " + r + " 0 1 0 " + -2 * r + " 0Z";
            }
            var path = "";
            for (var i = 0; i + 1 < c.length; i += 2) path += (i === 0 ? "M" : "L") + c[i] + " " + c[i + 1];
            return path + "Z";
          }
          explorer.addEventListener("focusin", function (event) {
            var path = event.target.tagName === "AREA" ? outline(event.target) : "";
            ring.querySelectorAll("path").forEach(function (element) { element.setAttribute("d", path); });
          });
          explorer.addEventListener("focusout", function () {
            ring.querySelectorAll("path").forEach(function (element) { element.setAttribute("d", ""); });
          });

          // Touch and the mouse: a tone and a vibration for each kind of element met.
          var audio = null;
          function audioContext() {
            var Context = window.AudioContext || window.webkitAudioContext;
            if (!Context) return null;
            if (!audio) audio = new Context();
            if (audio.state === "suspended" && audio.resume) audio.resume();
            return audio;
          }
          function feel(kind) {
            var tone = data.tones[kind];
            var context = audioContext();
            if (context) {
              var now = context.currentTime, oscillator = context.createOscillator(), gain = context.createGain();
              oscillator.type = tone.wave;
              oscillator.frequency.value = tone.frequency;
              gain.gain.setValueAtTime(tone.volume, now);
              gain.gain.exponentialRampToValueAtTime(0.0001, now + tone.seconds);
              oscillator.connect(gain);
              gain.connect(context.destination);
              oscillator.start(now);
              oscillator.stop(now + tone.seconds);
            }
            if (typeof navigator.vibrate === "function") navigator.vibrate(tone.pattern.length ? tone.pattern : 0);
          }
          var water = data.water, waterBits = water ? atob(water.bits) : "";
          function isWater(x, y) {
            if (!water) return false;
            var column = Math.floor(x / water.cellSide), row = Math.floor(y / water.cellSide);
            if (column < 0 || row < 0 || column >= water.columns || row >= water.rows) return false;
            var bit = row * water.columns + column;
            return (waterBits.charCodeAt(bit >> 3) & (0x80 >> (bit & 7))) !== 0;
          }
          var felt = null;
          function feelAt(x, y) {
            var under = document.elementFromPoint(x, y), kind, which;
            if (under && under.tagName === "AREA") {
              kind = under.dataset.kind;
              which = under.getAttribute("href");
            } else if (under === image) {
              var box = image.getBoundingClientRect();
              kind = isWater((x - box.left) * image.width / box.width, (y - box.top) * image.height / box.height) ? "water" : "background";
              which = kind;
            } else {
              return;
            }
            if (which === felt) return;
            felt = which;
            feel(kind);
          }
          explorer.addEventListener("pointerdown", function (event) { felt = null; feelAt(event.clientX, event.clientY); });
          explorer.addEventListener("pointermove", function (event) { feelAt(event.clientX, event.clientY); });
          explorer.addEventListener("pointerleave", function () { felt = null; });
        })();
        """
}
