// The signer names kubernetes.io reserves (certificates.k8s.io/v1's well-known signers).
export const kubeAPIServerClientSignerName = 'kubernetes.io/kube-apiserver-client';
export const kubeletClientSignerName = 'kubernetes.io/kube-apiserver-client-kubelet';
export const kubeletServingSignerName = 'kubernetes.io/kubelet-serving';
export const legacyUnknownSignerName = 'kubernetes.io/legacy-unknown';
