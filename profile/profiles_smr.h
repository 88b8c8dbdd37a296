/* hddsim: the built-in drive-managed SMR profiles (profiles_smr.c). */
#ifndef HDDSIM_PROFILES_SMR_H
#define HDDSIM_PROFILES_SMR_H

#include "profile.h"

extern const struct hdd_profile hdd_profile_st8000as0002;
extern const struct hdd_profile hdd_profile_wd40efax;

#endif /* HDDSIM_PROFILES_SMR_H */
