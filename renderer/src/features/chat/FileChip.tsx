import { useQuery } from '@tanstack/react-query';
import { filesApi } from '../../api/files';
import { knowledgeApi } from '../../api/knowledge';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';
import type { FileRef } from './store';

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** A file or knowledge base attached to a message; a saved file's name is looked up when only its id is known. */
export function FileChip({ file }: { file: FileRef }) {
  const t = useT();
  const lookup = useQuery({ queryKey: ['file', file.id], queryFn: () => filesApi.get(file.id), enabled: !file.name && file.type === 'file', staleTime: Infinity, retry: false });
  // Saved messages keep only a base's id: its name comes from the knowledge list after a reload.
  const bases = useQuery({ queryKey: ['knowledge'], queryFn: knowledgeApi.list, enabled: !file.name && file.type === 'collection', staleTime: 60_000, retry: false });
  const baseName = bases.data?.find((k) => k.id === file.id)?.name;
  const name = file.name || lookup.data?.filename || baseName || (file.type === 'collection' ? t('chat.knowledgeChip') : t('chat.fileChip'));
  const image = file.type === 'file' && (lookup.data ? lookup.data.mime_type.startsWith('image/') : IMAGE_NAME.test(name));
  if (image) {
    // A picture shows as a thumbnail that opens it whole.
    return (
      <a className="file-thumb" href={filesApi.contentUrl(file.id)} target="_blank" rel="noopener noreferrer" title={name} data-testid="file-thumb">
        <img src={filesApi.contentUrl(file.id)} alt={name} loading="lazy" />
      </a>
    );
  }
  const content = (
    <>
      <Icon name={file.type === 'collection' ? 'book' : 'file'} size={14} />
      <span className="truncate">{name}</span>
    </>
  );
  if (file.type === 'note') {
    return (
      <a className="file-chip knowledge" href={`/notes/${encodeURIComponent(file.id)}`}>
        <Icon name="pencil" size={14} />
        <span className="truncate">{file.name || t('chat.noteChip')}</span>
      </a>
    );
  }
  return file.type === 'file' ? (
    <a className="file-chip" href={filesApi.contentUrl(file.id)} target="_blank" rel="noopener noreferrer">
      {content}
    </a>
  ) : (
    <span className="file-chip knowledge">{content}</span>
  );
}
