// `import SnapshotTesting` on Linux: pointfreeco's swift-snapshot-testing itself, re-exported
// whole, with the image strategies that the library declares only on Apple's platforms (a layer
// or an image as `.image`) added here. The library's module is renamed for this package
// (`moduleAliases` in Package.swift) so that this module can carry its name: a test file written
// for Apple imports `SnapshotTesting` and finds both the library and these strategies, unchanged.
// A module of another name would have to be imported by the file (Swift finds extension members
// only in modules a file's module imports), and then the file would not be Apple's any more.
// On Apple's platforms nothing is added: the library's own strategies stand.
@_exported import PointFreeSnapshotTesting
