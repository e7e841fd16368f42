/**
 * Where the box may write outside its data folder: mounted disks (a second disk or USB stick
 * for backups, a file:// replica). The shipped unit (systemd/ironbox.service) lists the same
 * folders in ReadWritePaths=, and systemd/units.test.ts holds the two together.
 */
export const MOUNTED_DISK_ROOTS = ["/srv", "/mnt", "/media"] as const;

/** Whether `folder` (absolute, resolved) is inside one of `roots`. */
export const isUnder = (folder: string, roots: readonly string[]) => roots.some((root) => folder.startsWith(`${root}/`));
