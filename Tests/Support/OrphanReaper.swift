import Foundation

/// Ends what the tests started once the test process has gone, even when it was killed with
/// SIGKILL and could clean up nothing itself: no `mapframe serve`, `postgres` or `nginx` of a run
/// outlives it.
///
/// A small Python process, in a process group of its own (as every `ChildProcess` is) so that a
/// terminal's Ctrl-C does not end it first, watches the test process. While it lives, it notes every descendant (by process id and
/// start time, so that a recycled id is never mistaken for one). When it dies, it kills with
/// SIGKILL every noted descendant still running, and every process whose environment carries this
/// run's `marker`, which `childEnvironment` gives each child: that finds the descendants of
/// children that were reparented before being noted. It looks twice more, half a second apart, for
/// processes forked meanwhile, and exits.
enum OrphanReaper {
    /// The variable that marks this run's children.
    static let variable = "MAPFRAME_TEST_RUN"

    /// This run's value of `variable`.
    static let marker = "\(getpid())-\(UUID().uuidString)"

    /// Starts the watcher once, before the first child; it is kept for the run.
    static let watcher: ChildProcess? = {
        do {
            return try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, String(getpid()), "\(variable)=\(marker)"],
                in: FileManager.default.temporaryDirectory, environment: ProcessInfo.processInfo.environment
            )
        } catch {
            FileHandle.standardError.write(Data("warning: cannot start the orphan reaper (\(error)); children of a killed run may be left\n".utf8))
            return nil
        }
    }()

    private static let script = """
        import os, signal, sys, time
        parent, marker = int(sys.argv[1]), sys.argv[2].encode()
        mine = os.getpid()

        def stat(pid):
            with open(f"/proc/{pid}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
            return int(fields[1]), fields[19]  # parent id, start time

        def processes():
            found = {}
            for name in os.listdir("/proc"):
                if name.isdigit() and int(name) != mine:
                    try:
                        found[int(name)] = stat(name)
                    except (OSError, IndexError):
                        pass
            return found

        noted = {}
        while os.path.exists(f"/proc/{parent}"):
            table = processes()
            noted = {pid: start for pid, start in noted.items() if pid in table and table[pid][1] == start}
            family, grew = {parent}, True
            while grew:
                grew = False
                for pid, (ppid, start) in table.items():
                    if ppid in family and pid not in family:
                        family.add(pid)
                        noted[pid] = start
                        grew = True
            time.sleep(0.25)

        for _ in range(3):
            table = processes()
            for pid, (_, start) in table.items():
                doomed = noted.get(pid) == start
                if not doomed:
                    try:
                        with open(f"/proc/{pid}/environ", "rb") as file:
                            doomed = marker in file.read().split(b"\\0")
                    except OSError:
                        pass
                if doomed:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            time.sleep(0.5)
        """
}
