import { useQuery } from '@tanstack/react-query';
import { filesApi } from '../../api/files';
import { Icon } from '../../components/Icon';
import type { FileRef } from './store';

/** A file or knowledge base attached to a message; a saved file's name is looked up when only its id is known. */
export function FileChip({ file }: { file: FileRef }) {
  const lookup = useQuery({ queryKey: ['file', file.id], queryFn: () => filesApi.get(file.id), enabled: !file.name && file.type === 'file', staleTime: Infinity, retry: false });
  const name = file.name || lookup.data?.filename || (file.type === 'collection' ? 'Knowledge' : 'File');
  const content = (
    <>
      <Icon name={file.type === 'collection' ? 'book' : 'file'} size={14} />
      <span className="truncate">{name}</span>
    </>
  );
  return file.type === 'file' ? (
    <a className="file-chip" href={filesApi.contentUrl(file.id)} target="_blank" rel="noopener noreferrer">
      {content}
    </a>
  ) : (
    <span className="file-chip knowledge">{content}</span>
  );
}
