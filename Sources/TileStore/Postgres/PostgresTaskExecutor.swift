import Foundation

/// Threads of their own for the PostgreSQL client's async work when a blocking caller waits for
/// it. A caller on one of Swift's cooperative threads that blocked while the query it waits for
/// needed a cooperative thread to run could, with every such thread blocked, wait for ever;
/// work that prefers this executor never needs one.
final class PostgresTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "mapframe-postgres-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
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
