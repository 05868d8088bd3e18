/**
 * API reports of published packages: API Extractor reads each entry point's built declarations (`dist/*.d.ts`) and
 * writes every export with its full signature to `api/<report>.api.md`. A check fails when a report differs from what
 * the declarations give, so no export changes without its report changing in the same commit.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import {
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
  ExtractorMessageCategory,
} from "@microsoft/api-extractor";

/** One entry point of a package: its export path, export condition and built declarations. */
export interface EntryPoint {
  /** The `exports` key: `.` or a subpath such as `./internal`. */
  subpath: string;
  /** The export condition the declarations belong to when an entry point has several (zarrkit's `node`), or "". */
  condition: string;
  /** Absolute path of the entry point's `.d.ts`. */
  declarations: string;
  /** The report's file name without `.api.md`: the unscoped package name, then the subpath and condition. */
  reportName: string;
}

/** What checking or updating one package found. */
export interface PackageResult {
  /** The package's name. */
  name: string;
  /** The reports that differed from the declarations (in a check) or were rewritten (in an update). */
  changed: string[];
  /** In a check, how each changed report would change (unified diffs, report first). */
  diffs: string[];
  /** Errors API Extractor reported (a missing `dist`, a declaration it cannot read). */
  errors: string[];
}

interface PackageJson {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

function readPackageJson(packageDir: string): PackageJson {
  return JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as PackageJson;
}

/** The `types` paths under one `exports` value, with the condition that leads to each ("" for the plain one). */
function typesPaths(value: unknown, condition = ""): { condition: string; types: string }[] {
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  if (typeof record.types === "string") return [{ condition, types: record.types }];
  return Object.entries(record)
    .filter(([key]) => key !== "@zarrkit/source")
    .flatMap(([key, inner]) => typesPaths(inner, key === "default" ? condition : key));
}

/** Every entry point of the package at `packageDir`, from its package.json `exports`. */
export function entryPoints(packageDir: string): EntryPoint[] {
  const pkg = readPackageJson(packageDir);
  const unscoped = pkg.name.replace(/^@[^/]+\//, "");
  return Object.entries(pkg.exports ?? {}).flatMap(([subpath, value]) =>
    typesPaths(value).map(({ condition, types }) => ({
      subpath,
      condition,
      declarations: resolve(packageDir, types),
      reportName: [unscoped, subpath.replace(/^\.\/?/, "").replaceAll("/", "-"), condition]
        .filter((part) => part !== "")
        .join("-"),
    })),
  );
}

// Release tags and TSDoc style are not used by zarrkit's doc comments (TypeDoc reads them): reporting them would bury
// the one finding that matters, a changed export.
const QUIET = { logLevel: ExtractorLogLevel.None, addToApiReportFile: false };
const MESSAGES = {
  compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
  extractorMessageReporting: {
    default: { logLevel: ExtractorLogLevel.Warning },
    "ae-missing-release-tag": QUIET,
    "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
    "ae-unresolved-link": QUIET,
    // TypeDoc checks doc comments (CI fails on a missing one) and, unlike API Extractor, inherits them from interfaces.
    "ae-undocumented": QUIET,
  },
  tsdocMessageReporting: { default: QUIET },
};

/** A unified diff from the committed report to the generated one (the generated one alone when none is committed). */
function reportDiff(committed: string, generated: string): string {
  const diff = spawnSync("diff", ["-u", committed, generated], { encoding: "utf8" });
  return diff.stdout !== "" ? diff.stdout : readFileSync(generated, "utf8");
}

/**
 * Check (or, with `update`, rewrite) the API reports of the package at `packageDir`, one per entry point, in its
 * `api` folder. The package must be built.
 */
export function runPackage(packageDir: string, options: { update: boolean }): PackageResult {
  const pkg = readPackageJson(packageDir);
  const result: PackageResult = { name: pkg.name, changed: [], diffs: [], errors: [] };
  const tempFolder = mkdtempSync(join(tmpdir(), "zarrkit-api-report-"));
  if (options.update) mkdirSync(join(packageDir, "api"), { recursive: true });
  try {
    for (const entry of entryPoints(packageDir)) {
      if (!existsSync(entry.declarations)) {
        result.errors.push(
          `${entry.reportName}: ${relative(packageDir, entry.declarations)} is missing: build the package first`,
        );
        continue;
      }
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: packageDir,
          mainEntryPointFilePath: entry.declarations,
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                target: "ES2022",
                lib: ["ES2023", "DOM"],
                module: "NodeNext",
                moduleResolution: "NodeNext",
                strict: true,
                skipLibCheck: true,
                types: [],
              },
              files: [entry.declarations],
            },
          },
          apiReport: {
            enabled: true,
            reportFileName: entry.reportName,
            reportFolder: join(packageDir, "api"),
            reportTempFolder: tempFolder,
            includeForgottenExports: false,
          },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: MESSAGES,
          newlineKind: "lf",
        },
        configObjectFullPath: undefined,
        packageJsonFullPath: join(packageDir, "package.json"),
      });
      const extracted = Extractor.invoke(config, {
        localBuild: options.update,
        messageCallback: (message: ExtractorMessage) => {
          // The console messages tell of the report files, which the result lists itself.
          if (message.category === ExtractorMessageCategory.Console) {
            message.handled = true;
            return;
          }
          if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) {
            result.errors.push(`${entry.reportName}: ${message.formatMessageWithLocation(packageDir)}`);
          }
          message.handled = true;
        },
      });
      if (!extracted.apiReportChanged) continue;
      const report = `api/${entry.reportName}.api.md`;
      result.changed.push(report);
      if (!options.update)
        result.diffs.push(reportDiff(join(packageDir, report), join(tempFolder, `${entry.reportName}.api.md`)));
    }
  } finally {
    rmSync(tempFolder, { recursive: true, force: true });
  }
  return result;
}
