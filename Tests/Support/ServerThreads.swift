import Foundation

/// Threads of their own for the servers the tests run in this process (`TestServer`).
///
/// Swift's cooperative threads, one a core, are shared with every test, and a test that draws
/// frames holds one for as long as it draws. Started with this executor as its preference, a
/// server's tasks, and every task they start in a group, run here, so that the tests beside it
/// cannot hold up its answers.
/// Nothing here blocks: the server's own blocking work runs on its `BlockingPool`s, as in
/// `mapframe serve`.
public final class ServerThreads: TaskExecutor, @unchecked Sendable {
    /// Four threads for every server of the test run; a server's tasks only wait, never block.
    public static let shared = ServerThreads(count: 4)

    private let condition = NSCondition()
    /// Jobs waiting, oldest first; guarded by `condition`.
    private var jobs: [UnownedJob] = []

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "test-server-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
