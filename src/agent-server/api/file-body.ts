import { invalid } from '../invalid.js';

/** What `files.upload` accepts: bytes in any of the usual forms, or text (sent as UTF-8). */
export type UploadData = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | string;

/**
 * The multipart body of an upload (`file` field, as the OpenAPI `Body_upload_file_query…` declares). Bytes are
 * passed to the `Blob` as they are, never decoded as text (the platform's own client decodes downloads as
 * text and corrupts binaries). A `ReadableStream` is read into a `Blob` first: multipart needs the size.
 */
export async function uploadForm(data: UploadData, fileName: string): Promise<FormData> {
  const form = new FormData();
  form.append('file', await toBlob(data), fileName);
  return form;
}

async function toBlob(data: UploadData): Promise<Blob> {
  if (typeof data === 'string') return new Blob([data], { type: 'text/plain' });
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data;
  if (data instanceof ArrayBuffer) return new Blob([data]);
  if (ArrayBuffer.isView(data)) {
    const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return new Blob([view.slice()]);
  }
  if (typeof ReadableStream !== 'undefined' && data instanceof ReadableStream) {
    return await new Response(data).blob();
  }
  throw invalid('data', 'must be a Blob, ArrayBuffer, typed array, ReadableStream or string');
}

/** The last segment of a path, as the upload's file name. */
export function baseName(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? 'file';
}
