import type * as FileTypeModule from 'file-type';
import type * as UndiciModule from 'undici';
import type * as YauzlModule from 'yauzl';
import type * as YazlModule from 'yazl';
import { loadExports } from './library-exports';

/*
 * Libraries several domains use for one kind of request (an upload, a ZIP download or restore),
 * loaded at that request's first use instead of at start-up (docs/performance.md, "Start-up").
 */

type FileType = Pick<typeof FileTypeModule, 'fileTypeFromBuffer' | 'fileTypeFromFile'>;
let fileTypeModule: Promise<FileType> | undefined;
/** file-type (magic-byte detection): uploads, profile images. */
export const loadFileType = (): Promise<FileType> => (fileTypeModule ??= loadExports(import('file-type'), 'file-type', 'fileTypeFromBuffer', 'fileTypeFromFile'));

type Undici = Pick<typeof UndiciModule, 'Agent' | 'request' | 'buildConnector'>;
let undiciModule: Promise<Undici> | undefined;
/** undici (1.1 MB, ≈ 8 MB of idle memory): streamed answers from providers, web search and page reads. */
export const loadUndici = (): Promise<Undici> => (undiciModule ??= loadExports(import('undici'), 'undici', 'Agent', 'request', 'buildConnector'));

type Yazl = Pick<typeof YazlModule, 'ZipFile'>;
let yazlModule: Promise<Yazl> | undefined;
/** yazl (writes ZIP files): exports and backups. */
export const loadYazl = (): Promise<Yazl> => (yazlModule ??= loadExports(import('yazl'), 'yazl', 'ZipFile'));

type Yauzl = Pick<typeof YauzlModule, 'open'>;
let yauzlModule: Promise<Yauzl> | undefined;
/** yauzl (reads ZIP files): backup restores. */
export const loadYauzl = (): Promise<Yauzl> => (yauzlModule ??= loadExports(import('yauzl'), 'yauzl', 'open'));
