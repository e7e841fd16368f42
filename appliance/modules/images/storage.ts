import { statfs } from "node:fs/promises";
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from "../../platform/config";
import { insufficientStorage } from "../../platform/errors";

/**
 * What a shop may keep on the box (issue 11, signatures added in issue 22): its uploaded
 * images and its drawn signatures together stay within IRONBOX_UPLOAD_QUOTA_MB, and neither is
 * taken while the data disk would keep less free space than the floor (the database must
 * always have room to grow). Each module counts its own rows; these are the rules they share.
 */

const MB = 1024 * 1024;

/** Free and total bytes of the file system holding `dir` (for unprivileged users). */
export type DiskSpace = (dir: string) => Promise<{ free: number; total: number }>;
export const diskSpace: DiskSpace = async (dir) => {
  const s = await statfs(dir);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
};

export function createStorageRules({
  dataDir,
  limits = DEFAULT_UPLOAD_LIMITS,
  space = diskSpace,
}: {
  dataDir: string;
  limits?: UploadLimits;
  space?: DiskSpace;
}) {
  return {
    /** 507 when storing `size` more bytes would take the data disk below its free-space floor. */
    async checkFreeSpace(size: number) {
      const { free, total } = await space(dataDir);
      const floor = Math.max(limits.minFreeBytes, total * limits.minFreeShare);
      if (free - size < floor)
        throw insufficientStorage(
          `The box's disk is almost full (${Math.floor(free / MB)} MB free): uploads and signatures are paused until space is freed; everything else still works`,
        );
    },
    /** 507 when a shop that keeps `usedBytes` (images and signatures) cannot take `size` more. */
    checkQuota(usedBytes: number, size: number) {
      if (usedBytes + size > limits.quotaBytes)
        throw insufficientStorage(
          `This shop's images and signatures have reached their ${Math.round(limits.quotaBytes / MB)} MB limit (${(usedBytes / MB).toFixed(1)} MB used); photos no item uses are removed after a day`,
        );
    },
  };
}
export type StorageRules = ReturnType<typeof createStorageRules>;
