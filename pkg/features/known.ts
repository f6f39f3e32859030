// Upstream v1.28's feature gates as kube-apiserver knows them: default, stage, and
// whether a gate is locked to its default (LockToDefault). kube-apiserver registers every
// gate of the packages it links, so most change nothing here (kubelet, scheduler and
// controller features) but are accepted so that flags written for kube-apiserver keep
// working. Taken from the v1.28 release branch's feature maps (k8s.io/kubernetes
// pkg/features, k8s.io/apiserver pkg/features, k8s.io/apiextensions-apiserver
// pkg/features, k8s.io/component-base logs and metrics), as of its later patch releases:
// UnauthenticatedHTTP2DOSMitigation (added in 1.28.3) is present and
// SchedulerQueueingHints is off by default.
export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  default: boolean;
  stage: Stage;
  /** Upstream refuses any other value (LockToDefault). */
  locked?: boolean;
}

const alpha: FeatureSpec = { default: false, stage: 'ALPHA' };
const alphaOn: FeatureSpec = { default: true, stage: 'ALPHA' };
const betaOn: FeatureSpec = { default: true, stage: 'BETA' };
const betaOff: FeatureSpec = { default: false, stage: 'BETA' };
const ga: FeatureSpec = { default: true, stage: 'GA' };
const gaLocked: FeatureSpec = { default: true, stage: 'GA', locked: true };
const deprecatedOn: FeatureSpec = { default: true, stage: 'DEPRECATED' };
const deprecatedOff: FeatureSpec = { default: false, stage: 'DEPRECATED' };
const deprecatedOffLocked: FeatureSpec = { default: false, stage: 'DEPRECATED', locked: true };

/** The featuregate package's own gates: set every alpha (beta) gate not named explicitly. */
export const allAlphaGate = 'AllAlpha';
export const allBetaGate = 'AllBeta';

export const knownFeatures: Readonly<Record<string, FeatureSpec>> = {
  // k8s.io/apiserver (pkg/features): the generic server's gates
  APIListChunking: betaOn,
  APIPriorityAndFairness: betaOn,
  APIResponseCompression: betaOn,
  APIServerIdentity: betaOn,
  APIServerTracing: betaOn,
  AdmissionWebhookMatchConditions: betaOn,
  AggregatedDiscoveryEndpoint: betaOn,
  ConsistentListFromCache: alpha,
  CustomResourceValidationExpressions: betaOn,
  EfficientWatchResumption: gaLocked,
  KMSv1: deprecatedOn,
  KMSv2: betaOn,
  KMSv2KDF: betaOff,
  OpenAPIEnums: betaOn,
  OpenAPIV3: gaLocked,
  RemainingItemCount: betaOn,
  RemoveSelfLink: gaLocked,
  ServerSideApply: gaLocked,
  ServerSideFieldValidation: gaLocked,
  StorageVersionAPI: alpha,
  StorageVersionHash: betaOn,
  UnauthenticatedHTTP2DOSMitigation: betaOff,
  ValidatingAdmissionPolicy: betaOff,
  WatchBookmark: gaLocked,
  WatchList: alpha,
  // k8s.io/apiextensions-apiserver
  CRDValidationRatcheting: alpha,
  // k8s.io/component-base: logging (logs/api/v1), metrics (ComponentSLIs), and the featuregate package's own AllAlpha/AllBeta
  AllAlpha: alpha,
  AllBeta: betaOff,
  ComponentSLIs: betaOn,
  ContextualLogging: alpha,
  LoggingAlphaOptions: alpha,
  LoggingBetaOptions: betaOn,
  // k8s.io/kubernetes pkg/features: kube-apiserver, controllers, kubelet, scheduler, kube-proxy
  APISelfSubjectReview: gaLocked,
  AnyVolumeDataSource: betaOn,
  AppArmor: betaOn,
  CPUManager: gaLocked,
  CPUManagerPolicyAlphaOptions: alpha,
  CPUManagerPolicyBetaOptions: betaOn,
  CPUManagerPolicyOptions: betaOn,
  CSIMigrationAzureFile: gaLocked,
  CSIMigrationPortworx: betaOff,
  CSIMigrationRBD: deprecatedOff,
  CSIMigrationvSphere: gaLocked,
  CSINodeExpandSecret: betaOn,
  CSIVolumeHealth: alpha,
  CloudControllerManagerWebhook: alpha,
  CloudDualStackNodeIPs: alpha,
  ClusterTrustBundle: alpha,
  ConsistentHTTPGetHandlers: ga,
  ContainerCheckpoint: alpha,
  CronJobTimeZone: gaLocked,
  CronJobsScheduledAnnotation: betaOn,
  CrossNamespaceVolumeDataSource: alpha,
  CustomCPUCFSQuotaPeriod: alpha,
  DefaultHostNetworkHostPortsInPodTemplates: deprecatedOff,
  DevicePluginCDIDevices: alpha,
  DisableCloudProviders: alpha,
  DisableKubeletCloudCredentialProviders: alpha,
  DownwardAPIHugePages: gaLocked,
  DynamicResourceAllocation: alpha,
  ElasticIndexedJob: betaOn,
  EventedPLEG: alpha,
  ExecProbeTimeout: ga,
  ExpandedDNSConfig: gaLocked,
  ExperimentalHostUserNamespaceDefaulting: deprecatedOffLocked,
  GRPCContainerProbe: gaLocked,
  GracefulNodeShutdown: betaOn,
  GracefulNodeShutdownBasedOnPodPriority: betaOn,
  HPAContainerMetrics: betaOn,
  HPAScaleToZero: alpha,
  HonorPVReclaimPolicy: alpha,
  IPTablesOwnershipCleanup: gaLocked,
  InPlacePodVerticalScaling: alpha,
  InTreePluginAWSUnregister: alpha,
  InTreePluginAzureDiskUnregister: alpha,
  InTreePluginAzureFileUnregister: alpha,
  InTreePluginGCEUnregister: alpha,
  InTreePluginOpenStackUnregister: alpha,
  InTreePluginPortworxUnregister: alpha,
  InTreePluginRBDUnregister: deprecatedOff,
  InTreePluginvSphereUnregister: alpha,
  JobBackoffLimitPerIndex: alpha,
  JobMutableNodeSchedulingDirectives: gaLocked,
  JobPodFailurePolicy: betaOn,
  JobPodReplacementPolicy: alpha,
  JobReadyPods: betaOn,
  JobTrackingWithFinalizers: gaLocked,
  KubeProxyDrainingTerminatingNodes: alpha,
  KubeletCgroupDriverFromCRI: alpha,
  KubeletInUserNamespace: alpha,
  KubeletPodResources: gaLocked,
  KubeletPodResourcesDynamicResources: alpha,
  KubeletPodResourcesGet: alpha,
  KubeletPodResourcesGetAllocatable: gaLocked,
  KubeletTracing: betaOn,
  LegacyServiceAccountTokenCleanUp: alpha,
  LegacyServiceAccountTokenNoAutoGeneration: gaLocked,
  LegacyServiceAccountTokenTracking: gaLocked,
  LocalStorageCapacityIsolationFSQuotaMonitoring: alpha,
  LogarithmicScaleDown: betaOn,
  MatchLabelKeysInPodTopologySpread: betaOn,
  MaxUnavailableStatefulSet: alpha,
  MemoryManager: betaOn,
  MemoryQoS: alpha,
  MinDomainsInPodTopologySpread: betaOn,
  MinimizeIPTablesRestore: gaLocked,
  MultiCIDRRangeAllocator: alpha,
  MultiCIDRServiceAllocator: alpha,
  NewVolumeManagerReconstruction: betaOn,
  NodeInclusionPolicyInPodTopologySpread: betaOn,
  NodeLogQuery: alpha,
  NodeOutOfServiceVolumeDetach: gaLocked,
  NodeSwap: betaOff,
  PDBUnhealthyPodEvictionPolicy: betaOn,
  PersistentVolumeLastPhaseTransitionTime: alpha,
  PodAndContainerStatsFromCRI: alpha,
  PodDeletionCost: betaOn,
  PodDisruptionConditions: betaOn,
  PodHostIPs: alpha,
  PodIndexLabel: betaOn,
  PodReadyToStartContainersCondition: alpha,
  PodSchedulingReadiness: betaOn,
  ProbeTerminationGracePeriod: gaLocked,
  ProcMountType: alpha,
  ProxyTerminatingEndpoints: gaLocked,
  QOSReserved: alpha,
  ReadWriteOncePod: betaOn,
  RecoverVolumeExpansionFailure: alpha,
  RetroactiveDefaultStorageClass: gaLocked,
  RotateKubeletServerCertificate: betaOn,
  SELinuxMountReadWriteOncePod: betaOn,
  SchedulerQueueingHints: betaOff,
  SeccompDefault: gaLocked,
  SecurityContextDeny: alpha,
  ServiceNodePortStaticSubrange: betaOn,
  SidecarContainers: alpha,
  SizeMemoryBackedVolumes: betaOn,
  SkipReadOnlyValidationGCE: alpha,
  StableLoadBalancerNodeSet: betaOn,
  StatefulSetAutoDeletePVC: betaOn,
  StatefulSetStartOrdinal: betaOn,
  TopologyAwareHints: betaOn,
  TopologyManager: gaLocked,
  TopologyManagerPolicyAlphaOptions: alpha,
  TopologyManagerPolicyBetaOptions: betaOn,
  TopologyManagerPolicyOptions: betaOn,
  UnknownVersionInteroperabilityProxy: alpha,
  UserNamespacesSupport: alpha,
  VolumeCapacityPriority: alpha,
  WinDSR: alpha,
  WinOverlay: betaOn,
  WindowsHostNetwork: alphaOn,
};
