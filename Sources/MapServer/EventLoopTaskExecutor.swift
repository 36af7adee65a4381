import NIOCore

/// Runs a task's jobs on one event loop, so that a task started there (the fast path's answer
/// to a tile it does not hold, a connection's requests for the router) resumes there after each
/// wait, rather than on whichever loop or thread Swift's global executor picks, which then hops
/// back to write the answer. Only work that never blocks may run on it: a task that waits for
/// storage waits on `BlockingPool.storage` or on the database's connections, and one that draws
/// waits on the render threads.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
