import { useQuery } from '@tanstack/react-query';
import { builtinApi } from '../../api/builtin';

/** Query key of the library. */
export const LIBRARY_KEY = ['builtin', 'models'];

/** The library, polled every second while a download runs. */
export function useBuiltinModels() {
  return useQuery({
    queryKey: LIBRARY_KEY,
    queryFn: builtinApi.list,
    refetchInterval: (query) => (query.state.data?.some((m) => m.status === 'downloading') ? 1000 : false),
  });
}

/** The curated list, only asked for while the browser says it is online (it links to the internet). */
export function useRecommended() {
  const online = typeof navigator === 'undefined' || navigator.onLine;
  return useQuery({ queryKey: ['builtin', 'recommended'], queryFn: builtinApi.recommended, enabled: online, staleTime: Infinity });
}
