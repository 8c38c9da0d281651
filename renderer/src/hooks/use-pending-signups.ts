import { useQuery } from '@tanstack/react-query';
import { usersApi } from '../api/users';

/**
 * How many sign-ups wait for an admin's approval (admins only; 0 for others). Kept under the
 * `users` key: the service's live `users:pending` event refreshes it with the user lists (see
 * use-realtime.ts).
 */
export function usePendingSignups(isAdmin: boolean): number {
  const pending = useQuery({ queryKey: ['users', 'pending-count'], queryFn: async () => (await usersApi.list({ role: 'pending' })).count, enabled: isAdmin, staleTime: 60_000 });
  return isAdmin ? (pending.data ?? 0) : 0;
}
