import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getToken } from '../api/http';

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();
let send: ((event: string, payload: unknown) => void) | undefined;

/** The pseudo-event heard when the connection (re)opens: events may have been missed while it was down. */
export const LIVE_CONNECTED = '$connected';

/** Sends an event to the service over the open connection (dropped while it is down, e.g. typing notices). */
export function sendLiveEvent(event: string, payload: unknown): void {
  send?.(event, payload);
}

/** The open connection's way to ask for a topic (set while connected). */
type Emitter = (event: string, payload: unknown, ack: (answer: { ok: boolean }) => void) => void;
let emitter: Emitter | undefined;
/** Topics followed, with what to call with the service's answer; asked again on every (re)connection. */
const followed = new Map<string, (ok: boolean) => void>();

function askFor(topic: string): void {
  emitter?.('subscribe', { topic }, (answer) => followed.get(topic)?.(answer?.ok === true));
}

/**
 * Follows a live topic (`note:<id>`): the service sends its events only while it allows this
 * user to see the item. `onAnswer` hears whether it did. Returns the unfollow.
 */
export function followTopic(topic: string, onAnswer: (ok: boolean) => void = () => undefined): () => void {
  followed.set(topic, onAnswer);
  askFor(topic);
  return () => {
    followed.delete(topic);
    emitter?.('unsubscribe', { topic }, () => undefined);
  };
}

/** Subscribes to a live event pushed by the service (socket.io); returns the unsubscribe. */
export function onLiveEvent(event: string, listener: Listener): () => void {
  let set = listeners.get(event);
  if (!set) listeners.set(event, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Keeps one socket.io connection open while signed in (presence), and refreshes lists on pushed events. */
export function useRealtime(): void {
  const qc = useQueryClient();
  useEffect(() => {
    let closed = false;
    let disconnect: (() => void) | undefined;
    void import('socket.io-client').then(({ io }) => {
      if (closed) return;
      const socket = io({ path: '/socket.io', auth: { token: getToken() ?? undefined }, transports: ['websocket', 'polling'], reconnectionDelayMax: 10_000 });
      send = (event, payload) => {
        if (socket.connected) socket.emit(event, payload);
      };
      socket.onAny((event: string, payload: unknown) => {
        for (const l of listeners.get(event) ?? []) l(payload);
        if (event.startsWith('chat')) void qc.invalidateQueries({ queryKey: ['chats'] });
        if (event.startsWith('knowledge') || event.startsWith('file')) void qc.invalidateQueries({ queryKey: ['knowledge'] });
        // A sign-up waiting for approval, or one approved (admins only): the badge and the user lists.
        if (event === 'users:pending') void qc.invalidateQueries({ queryKey: ['users'] });
      });
      socket.on('connect', () => {
        emitter = (event, payload, ack) => socket.emit(event, payload, ack);
        for (const topic of followed.keys()) askFor(topic);
        for (const l of listeners.get(LIVE_CONNECTED) ?? []) l(null);
      });
      disconnect = () => {
        send = undefined;
        emitter = undefined;
        socket.disconnect();
      };
    });
    return () => {
      closed = true;
      disconnect?.();
    };
  }, [qc]);
}
