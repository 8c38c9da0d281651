import { HttpError } from '../platform/http/errors';

/** 404: no chat with this id. */
export const chatNotFound = () => new HttpError(404, 'CHAT_NOT_FOUND', 'Chat not found');
/** 403: the chat belongs to someone else. */
export const chatForbidden = () => new HttpError(403, 'CHAT_FORBIDDEN', 'You do not have access to this chat');
/** 404: no such message in this chat. */
export const messageNotFound = () => new HttpError(404, 'MESSAGE_NOT_FOUND', 'Message not found in this chat');
