import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { libraryApi, type Folder } from '../../api/library';
import { messageOf } from '../../components/Feedback';
import { useToast } from '../../components/Toasts';

/** Query key of the folder list. */
export const FOLDERS_KEY = ['folders'] as const;

/** The caller's folders and the changes the sidebar makes to folders and filing. */
export function useFolders() {
  const qc = useQueryClient();
  const toast = useToast();
  const folders = useQuery({ queryKey: FOLDERS_KEY, queryFn: libraryApi.folders });
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: FOLDERS_KEY }), qc.invalidateQueries({ queryKey: ['chats'] })]);
  const onError = (error: unknown) => {
    toast(messageOf(error), 'error');
    void refresh();
  };
  const update = useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: { name?: string; parent_id?: string | null; is_expanded?: boolean } }) => libraryApi.updateFolder(id, changes),
    onMutate: ({ id, changes }) => qc.setQueryData<Folder[]>(FOLDERS_KEY, (list) => list?.map((f) => (f.id === id ? { ...f, ...changes } : f))),
    onError,
    onSettled: () => qc.invalidateQueries({ queryKey: FOLDERS_KEY }),
  });
  const create = useMutation({ mutationFn: ({ name, parent }: { name: string; parent: string | null }) => libraryApi.createFolder(name, parent), onError, onSettled: refresh });
  const remove = useMutation({ mutationFn: (id: string) => libraryApi.deleteFolder(id), onError, onSettled: refresh });
  const moveChat = useMutation({ mutationFn: ({ chat, folder }: { chat: string; folder: string | null }) => libraryApi.moveChat(chat, folder), onError, onSettled: refresh });
  return { folders: folders.data ?? [], update, create, remove, moveChat };
}
