import FuzzSupport

#if XT_FUZZ
/// libFuzzer's entry point (`fuzz/run` builds with `--sanitize=fuzzer -DXT_FUZZ`; libFuzzer's own
/// `main` drives it).
@_cdecl("LLVMFuzzerTestOneInput") public func fuzzGroupsFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzGroupsFileTarget.testOneInput(data, size) }
#else
/// In plain builds: replays input files through the same code (see `FuzzReplay`).
@main extension FuzzGroupsFileTarget: ReplayedFuzzTarget { static let name = "FuzzGroupsFile" }
#endif
