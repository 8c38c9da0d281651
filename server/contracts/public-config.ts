/** Answer of the public `GET /api/config`: what a signed-out browser needs to draw the first screen. */
export interface PublicConfig {
  /** Product name. */
  name: string;
  /** Service version. */
  version: string;
  /** True while no account exists: the UI shows the welcome screen that creates the admin. */
  onboarding: boolean;
  features: {
    /** Whether self sign-up is open (ENABLE_SIGNUP). */
    enable_signup: boolean;
    /** Whether users may create API keys (ENABLE_API_KEY). */
    enable_api_key: boolean;
    /** Whether answers can be rated 👍/👎 (ENABLE_MESSAGE_RATING). */
    enable_message_rating?: boolean;
    /** Whether an admin turned web search on (ENABLE_WEB_SEARCH); only told to signed-in callers. */
    enable_web_search?: boolean;
  };
}
