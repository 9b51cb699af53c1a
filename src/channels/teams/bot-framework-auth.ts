import { CallerIdConstants, ConfigurationBotFrameworkAuthentication, ConfigurationServiceClientCredentialFactory } from 'botbuilder';

import type { Config } from '../../config.js';

type TeamsSettings = NonNullable<Config['teams']>;

/**
 * The public cloud's endpoints (botframework-connector's AuthenticationConstants). botbuilder takes
 * all of them as given once any one is set, so overriding the OpenID metadata URL means naming the rest.
 */
const PUBLIC_CLOUD = {
  ToChannelFromBotLoginUrl: 'https://login.microsoftonline.com/botframework.com',
  ToChannelFromBotOAuthScope: 'https://api.botframework.com',
  ToBotFromChannelTokenIssuer: 'https://api.botframework.com',
  OAuthUrl: 'https://api.botframework.com',
  ToBotFromEmulatorOpenIdMetadataUrl: 'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration',
  CallerId: CallerIdConstants.PublicAzureChannel,
  ValidateAuthority: true,
} as const;

/**
 * How the adapter checks channel → bot tokens and gets its own: none of it when anonymous; otherwise
 * the app's credentials, with the channel's signing keys from MICROSOFT_OPENID_METADATA_URL when set.
 */
export function botFrameworkAuthentication(settings: TeamsSettings, anonymous: boolean): ConfigurationBotFrameworkAuthentication {
  if (anonymous) return new ConfigurationBotFrameworkAuthentication({}, new ConfigurationServiceClientCredentialFactory({}));
  const credentials = new ConfigurationServiceClientCredentialFactory({
    MicrosoftAppId: settings.appId,
    MicrosoftAppPassword: settings.appPassword,
    MicrosoftAppType: settings.appType,
    MicrosoftAppTenantId: settings.tenantId,
  });
  const endpoints = settings.openIdMetadataUrl ? { ...PUBLIC_CLOUD, ToBotFromChannelOpenIdMetadataUrl: settings.openIdMetadataUrl } : {};
  return new ConfigurationBotFrameworkAuthentication(
    { MicrosoftAppId: settings.appId, MicrosoftAppTenantId: settings.tenantId, ...endpoints },
    credentials,
  );
}
