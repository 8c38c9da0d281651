export { createChannels, type Channels, type ChannelsDeps } from './channels.module';
export { CHANNEL_EVENTS, channelRoom } from './channel-events';
