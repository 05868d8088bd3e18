import { createHash } from "node:crypto";
import { join } from "node:path";
import { missingRgwBinaries, type Rgw, startRgw } from "@zarrkit/rgw";
import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zk from "zarrkit";
import { type Demo, newPage, screenshotDir, settled, skipReason, startDemo } from "./harness.js";
import { decodePng } from "./png.js";

const BUCKET = "demo";
const [LO, HI, Z] = [1000, 40000, 40];
const gray = (v: number) => Math.round((255 * (Math.min(HI, Math.max(LO, v)) - LO)) / (HI - LO));

function rgwSkipReason(): string | undefined {
  const missing = missingRgwBinaries();
  if (missing.length === 0) return undefined;
  const reason = `${missing.join(", ")} not installed; run tooling/ci/install-system-deps.sh`;
  if (process.env.CI === "true") throw new Error(`The demo's S3 test needs radosgw on CI: ${reason}.`);
  console.warn(`\n[demo] Skipping the S3 test: ${reason}.\n`);
  return reason;
}

const skip = skipReason() ?? rgwSkipReason();

/** A bucket browsers on any origin may read (radosgw answers the CORS preflights). */
async function corsBucket(rgw: Rgw): Promise<void> {
  const client = new AwsClient({
    accessKeyId: rgw.accessKey,
    secretAccessKey: rgw.secretKey,
    service: "s3",
    region: "us-east-1",
  });
  const created = await client.fetch(`${rgw.endpoint}/${BUCKET}`, { method: "PUT" });
  if (!created.ok) throw new Error(`Creating bucket ${BUCKET}: ${created.status} ${await created.text()}`);
  const rule =
    "<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>" +
    "<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><ExposeHeader>Content-Range</ExposeHeader>" +
    "<ExposeHeader>Content-Length</ExposeHeader></CORSRule></CORSConfiguration>";
  const cors = await client.fetch(`${rgw.endpoint}/${BUCKET}?cors`, {
    method: "PUT",
    body: rule,
    headers: { "Content-MD5": createHash("md5").update(rule).digest("base64") },
  });
  if (!cors.ok) throw new Error(`Setting CORS on ${BUCKET}: ${cors.status} ${await cors.text()}`);
}

describe.skipIf(skip)("s3:// in Chromium, against radosgw", () => {
  let demo: Demo;
  let rgw: Rgw;
  let volume: zk.NdArray;

  beforeAll(async () => {
    demo = await startDemo();
    rgw = await startRgw();
    await corsBucket(rgw);
    // The sharded sample, written to the bucket with zarrkit.
    const local = await zk.openArray(await zk.openStore(`file://${join(demo.dataDir, "volume.zarr", "sharded")}`));
    volume = await local.get();
    const credentials = { accessKeyId: rgw.accessKey, secretAccessKey: rgw.secretKey };
    const s3 = await zk.openStore(`s3://${BUCKET}/volume.zarr?endpoint=${encodeURIComponent(rgw.endpoint)}`, {
      credentials,
    });
    const array = await zk.createArray(s3, "", local.metadata as never);
    await array.set(null, volume);
  });
  afterAll(async () => {
    await rgw?.stop();
    await demo?.close();
  });

  it("opens an array from keys typed into the form, kept out of the URL and of storage", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(`${demo.base}/`);
    const form = page.locator("#s3-form");
    await form.getByLabel("Location").fill(`s3://${BUCKET}/volume.zarr`);
    await form.getByLabel("Endpoint").fill(rgw.endpoint);
    await form.getByLabel("Access key ID").fill(rgw.accessKey);
    await form.getByLabel("Secret access key").fill(rgw.secretKey);
    await form.getByRole("button", { name: "Open from S3" }).click();
    expect(await settled(page)).toBe("ready");
    expect(await page.locator("#volume-title").textContent()).toContain("uint16 [128, 256, 256]");

    // The same slice and contrast through the URL's parameters (set by the page itself, the keys still in memory).
    await page.locator("#contrast-lo").fill(String(LO));
    await page.locator("#contrast-lo").press("Enter");
    await page.locator("#contrast-hi").fill(String(HI));
    await page.locator("#contrast-hi").press("Enter");
    await page.locator("#controls input[type=range]").fill(String(Z));
    expect(await settled(page, String(Z))).toBe("ready");
    const pixels = decodePng(await page.locator("#view").screenshot({ path: join(screenshotDir, "s3.png") }));
    const data = volume.data as Uint16Array;
    const wrong: string[] = [];
    for (let r = 0; r < 256; r++) {
      for (let c = 0; c < 256; c++) {
        const got = pixels.rgba[(r * pixels.width + c) * 4];
        if (got !== gray(data[(Z * 256 + r) * 256 + c]!) && wrong.length < 5) wrong.push(`(${r}, ${c}): ${got}`);
      }
    }
    expect(wrong).toEqual([]);

    const url = page.url();
    expect(new URL(url).searchParams.get("source")).toBe(
      `s3://${BUCKET}/volume.zarr?endpoint=${encodeURIComponent(rgw.endpoint)}`,
    );
    expect(url).not.toContain(rgw.secretKey);
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain(rgw.secretKey);
    expect(stored).not.toContain(rgw.accessKey);
    expect(errors).toEqual([]);

    // A reload forgets the keys: the bucket refuses, and the page says so.
    await page.reload();
    expect(await settled(page)).toBe("error");
    expect(await page.getByRole("alert").textContent()).toMatch(/refused \(key zarr\.json\)/);
    await context.close();
  });
});
