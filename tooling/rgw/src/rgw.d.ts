/** The programs a cluster needs, from Debian's radosgw, ceph-mon, ceph-osd and ceph-common packages. */
export declare const rgwBinaries: string[];

/** The binaries of `rgwBinaries` that are not on PATH. */
export declare function missingRgwBinaries(): string[];

export interface Rgw {
  /** S3 endpoint, e.g. http://127.0.0.1:40123 (path-style addressing only). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** The cluster's temporary directory (removed by stop). */
  dataDir: string;
  /** Stop radosgw, the OSD, then the monitor (by recorded PID), and remove the data directory. */
  stop(): Promise<void>;
}

/**
 * Start a one-monitor, one-OSD (memstore) cluster with radosgw, in a fresh temporary directory on free ports of
 * 127.0.0.1.
 */
export declare function startRgw(options?: { log?: (line: string) => void }): Promise<Rgw>;
