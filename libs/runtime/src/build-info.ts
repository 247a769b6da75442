/**
 * Version and commit of the running build, as a process reports them (`hyperfleet_api_build_info`, the
 * API's version, span resources). The CLI reads them (`decom --version`) and hands them to the process it
 * starts, so a `--version` loads no library.
 */
export interface BuildInfo {
  readonly version: string;
  readonly commit: string;
}
