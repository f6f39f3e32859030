// authentication.k8s.io reviews are never stored: their strategy only declares scope.
import { nameIsDNSSubdomain } from '../../apis/validation/names.js';
import { BaseStrategy } from '../generic/base-strategy.js';

export const reviewStrategy = new BaseStrategy({ namespaced: false, nameValidator: nameIsDNSSubdomain });

export const authenticationGroup = 'authentication.k8s.io';
