declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  /** Swagger UI's factory: renders the reference into `domNode`. */
  const SwaggerUI: (options: { url: string; domNode: HTMLElement; deepLinking?: boolean; tryItOutEnabled?: boolean; withCredentials?: boolean; requestInterceptor?: (request: { headers: Record<string, string> }) => unknown }) => unknown;
  export default SwaggerUI;
}
