import CCurses
import Foundation
import Observation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws a `FullScreen` on the terminal through ncursesw and runs its one event loop, on the
/// main actor: a key, a window resize (SIGWINCH) and a commit to the file (the state's change
/// stream, which the live state controller applies) each redraw at once, none waiting for the
/// others. What the screen reads is observed, so whatever changes it, it is drawn again.
@MainActor
final class CursesScreen: ScreenHost {
    private let model: FullScreen
    private let colors: Bool
    private var sources: [any DispatchSourceProtocol] = []
    private var drawPending = false
    /// Frames drawn so far.
    private var frames = 0
    private var stopped = false

    init(model: FullScreen, colors: Bool) {
        self.model = model
        self.colors = colors
    }

    /// Takes the terminal, runs until the person quits, gives the terminal back. Throws, with
    /// the terminal untouched, when ncursesw cannot be loaded or knows no such terminal.
    func run() throws {
        var error = [CChar](repeating: 0, count: 512)
        guard carnet_curses_open(colors ? 1 : 0, &error, error.count) == 0 else {
            throw CLIError(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), code: .other)
        }
        defer { carnet_curses_close() }
        let signals = carnet_curses_signals_begin()
        defer { carnet_curses_signals_end() }
        listen(to: model.terminal.console.inputDescriptor) { [weak self] in self?.readKeys() }
        if signals >= 0 { listen(to: signals) { [weak self] in self?.readSignals(signals) } }
        defer { for source in sources { source.cancel() } }
        observeChanges()
        draw()
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.model.showCounts()
                self.draw()
            }
        }
        while !model.isDone {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.25))
        }
    }

    private func listen(to descriptor: Int32, _ handler: @escaping @MainActor () -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { handler() } }
        source.resume()
        sources.append(source)
    }

    private func readKeys() {
        var value: Int32 = 0
        var any = false
        while true {
            let kind = carnet_curses_read(&value)
            if kind == Int32(CARNET_READ_CHAR), let key = Key(character: Int(value)) {
                model.handle(key)
            } else if kind == Int32(CARNET_READ_KEY), let key = Key(cursesKey: Int(value)) {
                model.handle(key)
            } else if kind == Int32(CARNET_READ_NONE) {
                break
            }
            any = true
            if model.isDone { return }
        }
        if any { draw() }
    }

    private func readSignals(_ descriptor: Int32) {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            switch Int32(byte) {
            case SIGWINCH: carnet_curses_resized()
            case SIGCONT: carnet_curses_resume()
            case SIGINT: model.handle(.control("c"))
            default: model.quit()  // SIGTERM, SIGHUP: the terminal is going
            }
        }
        draw()
    }

    /// Redraws whenever anything the last frame read changes, and tells the screen of every
    /// commit the state applies (to read again what the state does not hold).
    private func observeChanges() {
        withObservationTracking {
            _ = model.app.appliedChanges
        } onChange: { [weak self] in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.model.stateDidChange()
                    self.observeChanges()
                    self.scheduleDraw()
                }
            }
        }
    }

    private func scheduleDraw() {
        guard !drawPending else { return }
        drawPending = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.drawPending = false
                self.draw()
            }
        }
    }

    private func draw() {
        guard !stopped, !model.isDone else { return }
        var rows: Int32 = 0
        var columns: Int32 = 0
        carnet_curses_size(&rows, &columns)
        frames += 1
        let drawn = frames
        let frame = withObservationTracking {
            model.render(rows: Int(rows), columns: Int(columns))
        } onChange: { [weak self] in
            // A key's own changes are drawn as soon as it is handled: redraw only when no frame
            // came since this one read what changed.
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self, self.frames == drawn else { return }
                    self.scheduleDraw()
                }
            }
        }
        carnet_curses_erase()
        for (y, pieces) in frame.lines.enumerated() {
            for piece in pieces {
                let characters = piece.span.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                characters.withUnsafeBufferPointer { buffer in
                    carnet_curses_put(Int32(y), Int32(piece.column), buffer.baseAddress, Int32(buffer.count),
                                      Self.attributes(piece.span.style), colors ? Self.pair(piece.span.style.color) : 0)
                }
            }
        }
        carnet_curses_refresh()
    }

    private static func attributes(_ style: CellStyle) -> Int32 {
        var result: Int32 = 0
        if style.bold { result |= Int32(CARNET_ATTR_BOLD) }
        if style.reverse { result |= Int32(CARNET_ATTR_REVERSE) }
        if style.dim { result |= Int32(CARNET_ATTR_DIM) }
        if style.underline { result |= Int32(CARNET_ATTR_UNDERLINE) }
        return result
    }

    private static func pair(_ color: CellStyle.Color) -> Int32 {
        switch color {
        case .plain: 0
        case .accent: 1
        case .message: 2
        case .error: 3
        }
    }

    // MARK: ScreenHost

    func withTerminalReleased<T>(_ body: () throws -> T) throws -> T {
        carnet_curses_suspend()
        defer {
            carnet_curses_resume()
            draw()
        }
        return try body()
    }

    func stop() {
        carnet_curses_suspend()
        stopped = true
        carnet_curses_stop()
        stopped = false
        carnet_curses_resume()
        draw()
    }

    func redrawAll() {
        carnet_curses_resume()
        draw()
    }
}
