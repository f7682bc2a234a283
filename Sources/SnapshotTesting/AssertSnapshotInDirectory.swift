import Foundation
import Testing
import XCTest

/// `assertSnapshot` with the references in `snapshotDirectory` (the library's `verifySnapshot`
/// takes one; its `assertSnapshot` does not): for goldens kept apart from the test file, as
/// OpenQuartz's scene goldens are (`Tests/SceneCatalogTests/Goldens/<scene>.<name>.png`, with
/// `testName: scene.name`). A failure is recorded in whichever framework runs the test.
public func assertSnapshot<Value, Format>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value, Format>,
    named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil,
    snapshotDirectory: String,
    timeout: TimeInterval = 5,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    guard let message = verifySnapshot(of: try value(), as: snapshotting, named: name, record: record,
                                       snapshotDirectory: snapshotDirectory, timeout: timeout, fileID: fileID,
                                       file: filePath, testName: testName, line: line, column: column)
    else { return }
    if Test.current != nil {
        Issue.record(Comment(rawValue: message),
                     sourceLocation: SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
