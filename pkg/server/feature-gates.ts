// --feature-gates: upstream's gate names with their v1.28 defaults. Unknown gates are
// a startup error, as upstream; gates without effect here are accepted and recorded.
const defaults: Record<string, boolean> = {
  APIListChunking: true,
  WatchList: false,
  ConsistentListFromCache: false,
  ServerSideApply: true,
  ServerSideFieldValidation: true,
  APIResponseCompression: true,
  AggregatedDiscoveryEndpoint: true,
  OpenAPIEnums: true,
  ValidatingAdmissionPolicy: false,
  KMSv2: true,
  APIPriorityAndFairness: true,
  RemainingItemCount: true,
  EfficientWatchResumption: true,
  StorageVersionAPI: false,
  ServiceAccountTokenJTI: false,
  LegacyServiceAccountTokenCleanUp: false,
  CustomResourceValidationExpressions: true,
  UnauthenticatedHTTP2DOSMitigation: false,
  SecurityContextDeny: false,
};

export class FeatureGates {
  private values: Record<string, boolean> = { ...defaults };

  /** Parses `A=true,B=false`. */
  set(spec: string): void {
    for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
      const [name, raw] = part.split('=');
      if (!(name in defaults)) throw new Error(`unrecognized feature gate: ${name}`);
      if (raw !== 'true' && raw !== 'false') throw new Error(`invalid value of ${name}=${raw ?? ''}, err: strconv.ParseBool`);
      this.values[name] = raw === 'true';
    }
  }

  enabled(name: string): boolean {
    return this.values[name] ?? false;
  }
}

let gates = new FeatureGates();
export function featureGates(): FeatureGates {
  return gates;
}
export function resetFeatureGates(spec = ''): FeatureGates {
  gates = new FeatureGates();
  if (spec) gates.set(spec);
  return gates;
}
