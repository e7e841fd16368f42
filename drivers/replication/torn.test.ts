// The torn-segment helpers against Litestream 0.3.13's own output (both of its log formats).
import { describe, expect, test } from "bun:test";
import { parseSnapshotIndexes, parseWalListing, walFailure } from "./torn";

describe("a torn WAL segment", () => {
  test("a restore that failed fetching WAL after its snapshot, in either log format, names the generation", () => {
    expect(
      walFailure(`2026/11/26 01:15:48 INFO restoring snapshot replica=file generation=51075732b1f3d256 index=0 path=out.db.tmp
2026/11/26 01:15:48 INFO restoring wal files replica=file generation=51075732b1f3d256 index_min=0 index_max=0
2026/11/26 01:15:48 ERROR failed to run error="cannot download wal 51075732b1f3d256/00000000: unexpected EOF"`),
    ).toBe("51075732b1f3d256 cannot download wal 51075732b1f3d256/00000000: unexpected EOF");
    expect(
      walFailure(`time=2026-11-26T01:15:48Z level=INFO msg="restoring snapshot" replica=sftp generation=abcd index=0
time=2026-11-26T01:15:48Z level=ERROR msg="failed to run" error="cannot download wal abcd/00000003: EOF"`),
    ).toBe("abcd cannot download wal abcd/00000003: EOF");
  });

  test("control: other failures are not taken for a torn segment", () => {
    // No snapshot came (nothing to restore before the tear), or a login refused.
    expect(walFailure(`time=x level=ERROR msg="failed to run" error="cannot restore wal: unexpected EOF"`)).toBeNull();
    expect(
      walFailure(`time=x level=INFO msg="restoring snapshot" generation=abcd index=0
time=x level=ERROR msg="failed to run" error="ssh: handshake failed: ssh: unable to authenticate"`),
    ).toBeNull();
  });

  test("listings: WAL segments in replica order, snapshots of one generation", () => {
    const wal = `replica  generation        index  offset  size  created
sftp     bbbb              0      0       340   2026-11-26T01:15:47Z
sftp     aaaa              1      4152    120   2026-11-26T01:15:48Z
sftp     aaaa              1      0       4000  2026-11-26T01:15:47Z
sftp     aaaa              0      0       900   2026-11-26T01:15:46Z
`;
    expect(parseWalListing(wal).map((s) => `${s.generation}/${s.index}:${s.offset}`)).toEqual(["aaaa/0:0", "aaaa/1:0", "aaaa/1:4152", "bbbb/0:0"]);
    const snaps = `replica  generation  index  size  created
sftp     aaaa        0      9000  2026-11-26T01:15:46Z
sftp     bbbb        0      9100  2026-11-26T01:15:47Z
sftp     aaaa        2      9200  2026-11-26T01:16:46Z
`;
    expect(parseSnapshotIndexes(snaps, "aaaa")).toEqual([0, 2]);
  });
});
