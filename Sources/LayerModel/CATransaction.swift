import Foundation

/// Transaction keys, as Core Animation names them.
public let kCATransactionAnimationDuration = "animationDuration"
public let kCATransactionDisableActions = "disableActions"
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
public let kCATransactionCompletionBlock = "completionBlock"

/// Groups layer changes: the duration and pacing of the implicit animations they cause, whether
/// they animate at all, and a block to run once every animation added in the transaction is done.
///
/// Transactions are per thread and nest; a value set in an inner transaction wins there, and the
/// outer one's applies otherwise. A change made outside any `begin()`/`commit()` opens an implicit
/// transaction, committed by `flush()`, when a renderer takes a frame, or at the end of the run
/// loop turn on threads that run one.
public final class CATransaction {
    private init() {}

    /// Opens a transaction on this thread.
    public class func begin() {
        TransactionStack.current.frames.append(TransactionStack.Frame(isImplicit: false))
    }

    /// Closes the innermost transaction: its animations join the enclosing one, and its completion
    /// block waits for them (or runs now when there are none, or all are done).
    public class func commit() {
        let stack = TransactionStack.current
        guard let frame = stack.frames.popLast() else {
            stack.didCommitAll()
            return
        }
        stack.frames.last?.animations.append(contentsOf: frame.animations)
        if stack.frames.isEmpty { stack.didCommitAll() }
        frame.startCompletion()
    }

    /// Commits the implicit transaction, if one is open and no explicit one is.
    public class func flush() {
        let stack = TransactionStack.current
        while let frame = stack.frames.last, frame.isImplicit { commit() }
        if stack.frames.isEmpty { stack.didCommitAll() }
    }

    /// Runs `body` in a transaction of its own whose animations are dropped at its end instead
    /// of joining the enclosing transaction's: for layers made only to be checked and thrown
    /// away (a scene document's first decode). Their animations would otherwise stay counted by
    /// this thread's open transaction until it commits, which on a thread without a run loop (a
    /// server's) is never, holding every tree a transition had snapshotted.
    package static func discardingAnimations<T>(_ body: () throws -> T) rethrows -> T {
        let stack = TransactionStack.current
        let depth = stack.frames.count
        stack.frames.append(TransactionStack.Frame(isImplicit: false))
        defer { stack.frames.removeSubrange(min(depth, stack.frames.count)...) }
        return try body()
    }

    private static let globalLock = NSRecursiveLock()

    /// Takes the lock that guards layer changes made from several threads.
    public class func lock() { globalLock.lock() }
    public class func unlock() { globalLock.unlock() }

    /// Runs `body` holding the lock.
    public static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        globalLock.lock()
        defer { globalLock.unlock() }
        return try body()
    }

    /// The duration of implicit animations. Default: 0.25 s.
    public class func animationDuration() -> CFTimeInterval {
        (value(forKey: kCATransactionAnimationDuration) as? NumberConvertible)?.doubleValue ?? 0.25
    }

    public class func setAnimationDuration(_ duration: CFTimeInterval) {
        setValue(duration, forKey: kCATransactionAnimationDuration)
    }

    /// The pacing of implicit animations. Default: nil (the `.default` curve).
    public class func animationTimingFunction() -> CAMediaTimingFunction? {
        value(forKey: kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }

    public class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: kCATransactionAnimationTimingFunction)
    }

    /// Whether property changes skip their actions (no implicit animation). Default: false.
    public class func disableActions() -> Bool {
        value(forKey: kCATransactionDisableActions) as? Bool ?? false
    }

    public class func setDisableActions(_ flag: Bool) {
        setValue(flag, forKey: kCATransactionDisableActions)
    }

    /// The block run once every animation added to the transaction after it was set has finished
    /// or been removed, as Apple's header has it: with none added before the commit, or when
    /// another block replaces it, it runs at once (the replaced block then waits only for what
    /// was added while it was set). Default: nil.
    public class func completionBlock() -> (() -> Void)? {
        value(forKey: kCATransactionCompletionBlock) as? () -> Void
    }

    public class func setCompletionBlock(_ block: (() -> Void)?) {
        setValue(block, forKey: kCATransactionCompletionBlock)
    }

    /// The value for `key` in the innermost transaction that has one.
    public class func value(forKey key: String) -> Any? {
        for frame in TransactionStack.current.frames.reversed() {
            if let value = frame.values[key] { return value }
        }
        return nil
    }

    /// Sets `key` in the innermost transaction (opening an implicit one if none is open).
    public class func setValue(_ value: Any?, forKey key: String) {
        let frame = TransactionStack.current.innermost
        if key == kCATransactionCompletionBlock {
            frame.startCompletion()
            frame.completionMark = frame.animations.count
        }
        frame.values[key] = value
    }

    /// Notes that a layer changed, so the change belongs to a transaction.
    static func noteChange() { _ = TransactionStack.current.innermost }

    /// Counts `animation` among the current transaction's, for its completion block.
    static func register(_ animation: CAAnimation) {
        TransactionStack.current.frames.last?.animations.append(animation)
    }
}

/// This thread's open transactions, innermost last.
final class TransactionStack {
    final class Frame {
        let isImplicit: Bool
        var values: [String: Any] = [:]
        var animations: [CAAnimation] = []
        /// How many animations the frame had when its completion block was set: the block waits
        /// only for those added after.
        var completionMark = 0
        init(isImplicit: Bool) { self.isImplicit = isImplicit }

        /// Starts the completion block set on this frame, waiting for the animations added since
        /// it was set, and clears it.
        func startCompletion() {
            guard let block = values.removeValue(forKey: kCATransactionCompletionBlock) as? () -> Void else { return }
            CompletionGroup.start(block, waitingFor: Array(animations[min(completionMark, animations.count)...]))
        }
    }

    var frames: [Frame] = []

    /// Whether a run loop commit is waiting on this thread's run loop.
    var commitScheduled = false

    /// Layers that recorded their committed values since the last commit.
    var changedLayers: [CALayer] = []

    /// After the outermost commit the recorded old values are history.
    func didCommitAll() {
        for layer in changedLayers { layer.committedValues = [:] }
        changedLayers = []
    }

    /// The innermost frame, opening an implicit one at the bottom when none is open.
    var innermost: Frame {
        if let frame = frames.last { return frame }
        let frame = Frame(isImplicit: true)
        frames.append(frame)
        // As in Core Animation, the implicit transaction also commits at the end of the current
        // run loop turn, on threads that run one. At most one commit is pending per thread, so a
        // thread that never runs its loop holds one block, not one per transaction.
        if !commitScheduled {
            commitScheduled = true
            RunLoop.current.perform {
                TransactionStack.current.commitScheduled = false
                CATransaction.flush()
            }
        }
        return frame
    }

    private static let perThread = ThreadLocal { TransactionStack() }

    /// This thread's transactions (every property set asks).
    static var current: TransactionStack { perThread.value }
}

/// A completion block waiting for a set of animations to stop.
final class CompletionGroup {
    private var pending: Int
    private var block: (() -> Void)?

    private init(pending: Int, block: @escaping () -> Void) {
        self.pending = pending
        self.block = block
    }

    static func start(_ block: @escaping () -> Void, waitingFor animations: [CAAnimation]) {
        let waiting = animations.filter { !$0.didReportStop }
        guard !waiting.isEmpty else {
            block()
            return
        }
        let group = CompletionGroup(pending: waiting.count, block: block)
        for animation in waiting { animation.completionGroups.append(group) }
    }

    /// One of the animations stopped.
    func animationStopped() {
        pending -= 1
        if pending == 0, let block {
            self.block = nil
            block()
        }
    }
}
