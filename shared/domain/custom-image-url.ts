/**
 * The custom image of the template builder (issue 14): a URL the Proxmox node
 * downloads a cloud image from. One schema for both sides, so the builder form
 * refuses exactly what main refuses, in the same words.
 *
 * The file is stored as `<storage>:import/<name>`, the name derived from the
 * URL's last path segment by importFileNameFor (the same function main's
 * preflight uses); download-url with `content=import` takes only names ending
 * in .qcow2, .raw or .vmdk (pve-storage `$UPLOAD_IMPORT_EXT_RE_1`). A cloud
 * image published as `.img` is qcow2 inside and stored under a `.qcow2` name.
 * Any other ending (an ISO, a tarball, a web page) is refused here rather than
 * renamed into something Proxmox would then fail to import.
 */
import { z } from 'zod';
import { IMPORT_FILE_NAME, importFileNameFor } from './image-catalogue';
import { httpUrlProblem } from './web-url';

export const CUSTOM_IMAGE_URL_MAX = 2048;
/** The endings a custom image's file may have: Proxmox's import extensions, and `.img` (stored as .qcow2). */
export const CUSTOM_IMAGE_EXTENSIONS = ['.qcow2', '.img', '.raw', '.vmdk'] as const;

const example = 'such as https://cloud.debian.org/images/cloud/trixie/latest/debian-13-genericcloud-amd64.qcow2';

/** The URL's last path segment, as importFileNameFor reads it. */
function lastSegment(text: string): string {
  return text.split(/[?#]/)[0]!.split('/').pop() ?? '';
}

/** Why `text` cannot be a custom image's URL, in words; undefined when it can. */
export function customImageUrlProblem(text: string): string | undefined {
  if (text === '') return `Enter the URL of the cloud image, ${example}.`;
  if (text.length > CUSTOM_IMAGE_URL_MAX) return `The URL is longer than ${CUSTOM_IMAGE_URL_MAX} characters.`;
  if (/\s/.test(text)) return 'The URL must not contain spaces: copy it again from the publisher’s page.';
  const notAnImageUrl = httpUrlProblem(text, {
    example,
    notHttp: (protocol) => `The node downloads only http:// and https:// URLs, not ${protocol} URLs.`,
    credentials:
      'The URL must not hold a user name or password: it is kept in the task journal and in the template’s notes. Use a URL that needs no login.',
  });
  if (notAnImageUrl) return notAnImageUrl;
  const segment = lastSegment(text);
  if (!CUSTOM_IMAGE_EXTENSIONS.some((ext) => segment.endsWith(ext)))
    return `The URL must name a disk image file ending in ${CUSTOM_IMAGE_EXTENSIONS.join(', ').replace(/, ([^,]*)$/, ' or $1')} (Proxmox imports only those)${segment ? `; this one ends in “${segment}”` : ''}.`;
  const fileName = importFileNameFor(text);
  if (!IMPORT_FILE_NAME.test(fileName)) return `“${fileName}” is not a file name Proxmox stores as an import image.`;
  return undefined;
}

/** The name the image gets on the import storage, or undefined while the URL is not acceptable. */
export function customImageFileName(text: string): string | undefined {
  const url = text.trim();
  return customImageUrlProblem(url) === undefined ? importFileNameFor(url) : undefined;
}

/** An http(s) URL of a disk image (.qcow2, .img, .raw, .vmdk) with no credentials, at most 2048 characters; surrounding spaces are dropped. */
export const CustomImageUrl = z
  .string()
  .max(CUSTOM_IMAGE_URL_MAX, { error: `The URL is longer than ${CUSTOM_IMAGE_URL_MAX} characters.`, abort: true })
  .trim()
  .superRefine((text, ctx) => {
    const message = customImageUrlProblem(text);
    if (message) ctx.addIssue({ code: 'custom', message, input: text });
  });
