/**
 * The atom types MITRE's CoTtypes.xml lists (`a-.-…`, the affiliation left out), as CoT consumers know them: the
 * type of every event reckon sends is one of these (src/cot/mapping.ts). From CoTtypes.xml v1.80 (2009, Copyright
 * (C) 2003 MITRE Corporation), as distributed in dB-SPL/cot-types @123f4a3 (Apache-2.0); entries it comments out
 * (`zot=`) are not listed. test/cot/cot-types.test.ts checks this list against that file.
 */
const TAILS = `
.*-9-1-1 A A-C-F A-C-F-q A-C-H A-C-L A-M-F A-M-F-A A-M-F-B A-M-F-C A-M-F-C-H A-M-F-C-L A-M-F-C-M A-M-F-D
A-M-F-F A-M-F-F-I A-M-F-H A-M-F-J A-M-F-K A-M-F-L A-M-F-M A-M-F-O A-M-F-P A-M-F-P-M A-M-F-P-N A-M-F-Q
A-M-F-R A-M-F-R-W A-M-F-R-X A-M-F-R-Z A-M-F-S A-M-F-T A-M-F-U A-M-F-U-H A-M-F-U-L A-M-F-U-M A-M-F-Y A-M-F-g
A-M-H A-M-H-A A-M-H-C A-M-H-C-H A-M-H-C-L A-M-H-C-M A-M-H-D A-M-H-H A-M-H-I A-M-H-J A-M-H-K A-M-H-M A-M-H-O
A-M-H-Q A-M-H-R A-M-H-S A-M-H-T A-M-H-U A-M-H-U-H A-M-H-U-L A-M-H-U-M A-M-L A-W A-W-D A-W-M A-W-M-A
A-W-M-A-A A-W-M-A-S A-W-M-L A-W-M-S A-W-M-S-A A-W-M-S-A-f A-W-M-S-A-i A-W-M-S-A-m A-W-M-S-S A-W-M-U G G-E
G-E-S G-E-S-E G-E-S-R G-E-V G-E-V-A G-E-V-A-A G-E-V-A-A-R G-E-V-A-C G-E-V-A-I G-E-V-A-L G-E-V-A-S G-E-V-A-T
G-E-V-A-T-H G-E-V-A-T-H-R G-E-V-A-T-L G-E-V-A-T-L-R G-E-V-A-T-M G-E-V-A-T-M-R G-E-V-C G-E-V-E G-E-V-E-A
G-E-V-E-A-A G-E-V-E-A-T G-E-V-E-B G-E-V-E-C G-E-V-E-D G-E-V-E-E G-E-V-E-M G-E-V-E-M-L G-E-V-E-M-V G-E-V-T
G-E-V-U G-E-V-U-B G-E-V-U-L G-E-V-U-R G-E-V-U-R-l G-E-V-U-R-m G-E-V-U-R-s G-E-V-U-S G-E-V-U-X G-E-V-m G-E-W
G-E-W-A G-E-W-A-H G-E-W-A-L G-E-W-A-M G-E-W-D G-E-W-D-H G-E-W-D-H-S G-E-W-D-L G-E-W-D-L-S G-E-W-D-M
G-E-W-D-M-S G-E-W-G G-E-W-G-H G-E-W-G-L G-E-W-G-M G-E-W-G-R G-E-W-H G-E-W-H-H G-E-W-H-H-S G-E-W-H-L
G-E-W-H-L-S G-E-W-H-M G-E-W-H-M-S G-E-W-M G-E-W-M-A G-E-W-M-A-I G-E-W-M-A-L G-E-W-M-A-S G-E-W-M-A-T
G-E-W-M-S G-E-W-M-S-I G-E-W-M-S-L G-E-W-M-S-S G-E-W-M-T G-E-W-M-T-H G-E-W-M-T-L G-E-W-M-T-M G-E-W-O
G-E-W-O-H G-E-W-O-L G-E-W-O-M G-E-W-R G-E-W-R-H G-E-W-R-L G-E-W-R-R G-E-W-S G-E-W-S-H G-E-W-S-L G-E-W-S-M
G-E-W-T G-E-W-T-H G-E-W-T-L G-E-W-T-M G-E-W-X G-E-W-X-H G-E-W-X-L G-E-W-X-M G-E-W-Z G-E-W-Z-H G-E-W-Z-L
G-E-W-Z-M G-E-X G-E-X-F G-E-X-L G-E-X-M G-E-X-M-C G-E-X-M-L G-E-X-N G-I G-I-B G-I-B-A G-I-B-N G-I-E G-I-E-h
G-I-E-l G-I-E-o G-I-G G-I-M G-I-M-A G-I-M-C G-I-M-E G-I-M-F G-I-M-F-A G-I-M-F-P G-I-M-F-P-W G-I-M-F-S
G-I-M-G G-I-M-M G-I-M-N G-I-M-N-B G-I-M-N-B-l G-I-M-N-B-m G-I-M-N-B-s G-I-M-N-c G-I-M-S G-I-M-V G-I-P
G-I-P-D G-I-R G-I-R-M G-I-R-N G-I-R-N-B G-I-R-N-C G-I-R-N-N G-I-R-P G-I-R-P-r G-I-T G-I-T-a G-I-T-hb
G-I-T-hs G-I-T-l G-I-T-pg G-I-T-r G-I-T-s G-I-U G-I-U-E G-I-U-E-D G-I-U-E-F G-I-U-E-N G-I-U-E-c G-I-U-E-h
G-I-U-E-o G-I-U-E-ps G-I-U-P G-I-U-R G-I-U-T G-I-U-T-com G-I-U-T-com-af G-I-U-T-com-sat G-I-U-T-com-tow
G-I-U-T-r G-I-U-T-r-s G-I-U-T-tp G-I-U-T-tp-ts G-I-U-T-tv G-I-U-T-tv-c G-I-U-T-tv-s G-I-X G-I-X-H G-I-X-hcf
G-I-c G-I-c-b G-I-c-bar G-I-c-can G-I-c-can-l G-I-c-frm G-I-c-l G-I-c-mon G-I-c-o G-I-c-rah G-I-c-rel
G-I-c-res G-I-c-ret G-I-c-sch G-I-c-vip G-I-c-whs G-I-i G-I-i-e G-I-i-e-eoc G-I-i-e-ic G-I-i-e-icc
G-I-i-e-icp G-I-i-e-wr G-I-i-f G-I-i-f-fd G-I-i-h G-I-i-h-md G-I-i-l G-I-i-l-cp G-I-i-l-hp G-I-i-l-lp
G-I-i-l-ntz G-I-i-l-sd G-I-i-l-sp G-I-i-m G-I-i-o G-I-i-o-ad G-I-i-o-ad-ems G-I-i-o-ad-f G-I-i-o-ad-hwy
G-I-i-o-ad-mda G-I-i-o-ad-pl G-I-i-o-ad-ps G-I-i-o-ad-tow G-I-i-o-ad-ts G-I-i-o-bcc G-I-i-o-dmz G-I-i-o-isp
G-I-i-o-mc G-I-i-o-mc-f G-I-i-o-mc-h G-I-i-o-mc-l G-I-i-o-mes G-I-i-o-mob G-I-i-o-mob-ems G-I-i-o-mob-es
G-I-i-o-mob-f G-I-i-o-mob-hwy G-I-i-o-mob-mda G-I-i-o-mob-pl G-I-i-o-mob-ps G-I-i-o-mob-tow G-I-i-o-ps
G-I-i-o-rl G-I-i-o-sa G-I-i-o-sa-ems G-I-i-o-sa-f G-I-i-o-sa-hwy G-I-i-o-sa-mda G-I-i-o-sa-pl G-I-i-o-sa-ps
G-I-i-o-sa-tow G-I-i-o-sa-ts G-I-i-o-sc G-I-i-o-seg G-I-i-o-t G-I-i-o-t-im G-I-i-o-t-tc G-I-i-o-t-td
G-I-i-o-t-tm G-I-i-o-tmp G-I-i-o-tmp-f G-I-i-o-tmp-h G-I-i-o-tmp-l G-I-i-p G-I-r G-I-r-h G-I-r-i G-I-r-ra
G-I-r-u G-U G-U-C G-U-C-A G-U-C-A-A G-U-C-A-A-A G-U-C-A-A-A-S G-U-C-A-A-A-T G-U-C-A-A-A-W G-U-C-A-A-C
G-U-C-A-A-D G-U-C-A-A-L G-U-C-A-A-M G-U-C-A-A-O G-U-C-A-A-O-S G-U-C-A-A-S G-U-C-A-A-U G-U-C-A-T G-U-C-A-T-A
G-U-C-A-T-H G-U-C-A-T-L G-U-C-A-T-M G-U-C-A-T-R G-U-C-A-T-W G-U-C-A-T-W-R G-U-C-A-W G-U-C-A-W-A G-U-C-A-W-H
G-U-C-A-W-L G-U-C-A-W-M G-U-C-A-W-R G-U-C-A-W-S G-U-C-A-W-W G-U-C-A-W-W-R G-U-C-D G-U-C-D-C G-U-C-D-G
G-U-C-D-H G-U-C-D-H-H G-U-C-D-H-P G-U-C-D-M G-U-C-D-M-H G-U-C-D-M-L G-U-C-D-M-L-A G-U-C-D-M-M G-U-C-D-O
G-U-C-D-S G-U-C-D-S-S G-U-C-D-S-V G-U-C-D-T G-U-C-E G-U-C-E-C G-U-C-E-C-A G-U-C-E-C-C G-U-C-E-C-H
G-U-C-E-C-L G-U-C-E-C-M G-U-C-E-C-O G-U-C-E-C-R G-U-C-E-C-S G-U-C-E-C-T G-U-C-E-C-W G-U-C-E-N G-U-C-E-N-N
G-U-C-F G-U-C-F-H G-U-C-F-H-A G-U-C-F-H-C G-U-C-F-H-E G-U-C-F-H-H G-U-C-F-H-L G-U-C-F-H-M G-U-C-F-H-O
G-U-C-F-H-S G-U-C-F-H-X G-U-C-F-M G-U-C-F-M-L G-U-C-F-M-S G-U-C-F-M-T G-U-C-F-M-T-A G-U-C-F-M-T-C
G-U-C-F-M-T-O G-U-C-F-M-T-S G-U-C-F-M-W G-U-C-F-O G-U-C-F-O-A G-U-C-F-O-L G-U-C-F-O-O G-U-C-F-O-S G-U-C-F-R
G-U-C-F-R-M G-U-C-F-R-M-R G-U-C-F-R-M-S G-U-C-F-R-M-T G-U-C-F-R-S G-U-C-F-R-S-R G-U-C-F-R-S-S G-U-C-F-R-S-T
G-U-C-F-S G-U-C-F-S-A G-U-C-F-S-L G-U-C-F-S-O G-U-C-F-S-S G-U-C-F-T G-U-C-F-T-A G-U-C-F-T-C G-U-C-F-T-C-D
G-U-C-F-T-C-M G-U-C-F-T-F G-U-C-F-T-R G-U-C-F-T-S G-U-C-I G-U-C-I-A G-U-C-I-C G-U-C-I-I G-U-C-I-L G-U-C-I-M
G-U-C-I-N G-U-C-I-O G-U-C-I-S G-U-C-I-Z G-U-C-I-d G-U-C-M G-U-C-M-S G-U-C-M-T G-U-C-R G-U-C-R-A G-U-C-R-C
G-U-C-R-H G-U-C-R-L G-U-C-R-O G-U-C-R-R G-U-C-R-R-D G-U-C-R-R-F G-U-C-R-R-L G-U-C-R-S G-U-C-R-V G-U-C-R-V-A
G-U-C-R-V-G G-U-C-R-V-M G-U-C-R-V-O G-U-C-R-X G-U-C-S G-U-C-S-A G-U-C-S-G G-U-C-S-G-A G-U-C-S-G-D
G-U-C-S-G-M G-U-C-S-M G-U-C-S-R G-U-C-S-W G-U-C-V G-U-C-V-C G-U-C-V-F G-U-C-V-F-A G-U-C-V-F-R G-U-C-V-F-U
G-U-C-V-R G-U-C-V-R-A G-U-C-V-R-M G-U-C-V-R-S G-U-C-V-R-U G-U-C-V-R-U-C G-U-C-V-R-U-E G-U-C-V-R-U-H
G-U-C-V-R-U-L G-U-C-V-R-U-M G-U-C-V-R-W G-U-C-V-R-d G-U-C-V-R-s G-U-C-V-S G-U-C-V-U G-U-C-V-U-F G-U-C-V-U-R
G-U-C-V-V G-U-H G-U-S G-U-S-A G-U-S-A-C G-U-S-A-F G-U-S-A-F-C G-U-S-A-F-T G-U-S-A-J G-U-S-A-J-C G-U-S-A-J-T
G-U-S-A-L G-U-S-A-L-C G-U-S-A-L-T G-U-S-A-M G-U-S-A-M-C G-U-S-A-M-T G-U-S-A-O G-U-S-A-O-C G-U-S-A-O-T
G-U-S-A-P G-U-S-A-P-B G-U-S-A-P-B-C G-U-S-A-P-B-T G-U-S-A-P-C G-U-S-A-P-M G-U-S-A-P-M-C G-U-S-A-P-M-T
G-U-S-A-P-T G-U-S-A-Q G-U-S-A-Q-C G-U-S-A-Q-T G-U-S-A-R G-U-S-A-R-C G-U-S-A-R-T G-U-S-A-S G-U-S-A-S-C
G-U-S-A-S-T G-U-S-A-T G-U-S-A-W G-U-S-A-W-C G-U-S-A-W-T G-U-S-A-X G-U-S-A-X-C G-U-S-A-X-T G-U-S-M G-U-S-M-C
G-U-S-M-D G-U-S-M-D-C G-U-S-M-D-T G-U-S-M-M G-U-S-M-M-C G-U-S-M-M-T G-U-S-M-P G-U-S-M-P-C G-U-S-M-P-T
G-U-S-M-T G-U-S-M-V G-U-S-M-V-C G-U-S-M-V-T G-U-S-S G-U-S-S-1 G-U-S-S-1-C G-U-S-S-1-T G-U-S-S-2 G-U-S-S-2-C
G-U-S-S-2-T G-U-S-S-3 G-U-S-S-3-A G-U-S-S-3-A-C G-U-S-S-3-A-T G-U-S-S-3-C G-U-S-S-3-T G-U-S-S-4 G-U-S-S-4-C
G-U-S-S-4-T G-U-S-S-5 G-U-S-S-5-C G-U-S-S-5-T G-U-S-S-6 G-U-S-S-6-C G-U-S-S-6-T G-U-S-S-7 G-U-S-S-7-C
G-U-S-S-7-T G-U-S-S-8 G-U-S-S-8-C G-U-S-S-8-T G-U-S-S-9 G-U-S-S-9-C G-U-S-S-9-T G-U-S-S-C G-U-S-S-L
G-U-S-S-L-C G-U-S-S-L-T G-U-S-S-T G-U-S-S-W G-U-S-S-W-C G-U-S-S-W-P G-U-S-S-W-P-C G-U-S-S-W-P-T G-U-S-S-W-T
G-U-S-S-X G-U-S-S-X-C G-U-S-S-X-T G-U-S-S-d G-U-S-T G-U-S-T-A G-U-S-T-A-C G-U-S-T-A-T G-U-S-T-C G-U-S-T-I
G-U-S-T-I-C G-U-S-T-I-T G-U-S-T-M G-U-S-T-M-C G-U-S-T-M-T G-U-S-T-R G-U-S-T-R-C G-U-S-T-R-T G-U-S-T-S
G-U-S-T-S-C G-U-S-T-S-T G-U-S-T-T G-U-S-X G-U-S-X-C G-U-S-X-E G-U-S-X-E-C G-U-S-X-E-T G-U-S-X-H G-U-S-X-H-C
G-U-S-X-H-T G-U-S-X-O G-U-S-X-O-C G-U-S-X-O-M G-U-S-X-O-M-C G-U-S-X-O-M-T G-U-S-X-O-T G-U-S-X-R G-U-S-X-R-C
G-U-S-X-R-T G-U-S-X-T G-U-U G-U-U-A G-U-U-A-B G-U-U-A-B-R G-U-U-A-C G-U-U-A-C-C G-U-U-A-C-C-K G-U-U-A-C-C-M
G-U-U-A-C-R G-U-U-A-C-R-S G-U-U-A-C-R-W G-U-U-A-C-S G-U-U-A-C-S-A G-U-U-A-C-S-M G-U-U-A-D G-U-U-A-N G-U-U-E
G-U-U-I G-U-U-L G-U-U-L-C G-U-U-L-D G-U-U-L-F G-U-U-L-M G-U-U-L-S G-U-U-M G-U-U-M-A G-U-U-M-C G-U-U-M-J
G-U-U-M-M-O G-U-U-M-O G-U-U-M-Q G-U-U-M-R G-U-U-M-R-G G-U-U-M-R-S G-U-U-M-R-S-S G-U-U-M-R-X G-U-U-M-S
G-U-U-M-S-E G-U-U-M-S-E-A G-U-U-M-S-E-C G-U-U-M-S-E-D G-U-U-M-S-E-I G-U-U-M-S-E-J G-U-U-M-S-E-T G-U-U-M-T
G-U-U-P G-U-U-S G-U-U-S-A G-U-U-S-C G-U-U-S-C-L G-U-U-S-F G-U-U-S-M G-U-U-S-M-L G-U-U-S-M-N G-U-U-S-M-S
G-U-U-S-O G-U-U-S-R G-U-U-S-R-S G-U-U-S-R-T G-U-U-S-R-W G-U-U-S-S G-U-U-S-W G-U-U-S-X G-U-i G-U-i-a
G-U-i-a-imt G-U-i-a-lar G-U-i-a-las G-U-i-a-lat G-U-i-a-sar G-U-i-a-sas G-U-i-a-sat G-U-i-e G-U-i-e-acrc
G-U-i-e-acrt G-U-i-e-att G-U-i-e-cis G-U-i-e-cst G-U-i-e-dc G-U-i-e-dmt G-U-i-e-ect G-U-i-e-efa G-U-i-e-elt
G-U-i-e-ems G-U-i-e-eos G-U-i-e-eps G-U-i-e-ial G-U-i-e-iat G-U-i-e-imt G-U-i-e-mcc G-U-i-e-mfk G-U-i-e-pac
G-U-i-e-rna G-U-i-e-smt G-U-i-e-val G-U-i-f G-U-i-f-act G-U-i-f-bp G-U-i-f-ct G-U-i-f-efp G-U-i-f-fb
G-U-i-f-ft G-U-i-f-fta G-U-i-f-ftf G-U-i-f-hc G-U-i-f-het G-U-i-f-hf G-U-i-f-ht G-U-i-f-ibt G-U-i-f-imt
G-U-i-f-mcu G-U-i-f-nsf G-U-i-f-pp G-U-i-f-st G-U-i-f-wt G-U-i-h G-U-i-h-dmb G-U-i-h-dmc G-U-i-h-dmm
G-U-i-h-dmp G-U-i-h-dms G-U-i-h-mor G-U-i-h-msr G-U-i-h-mst G-U-i-h-vma G-U-i-l G-U-i-l-bs G-U-i-l-cct
G-U-i-l-dt G-U-i-l-hps G-U-i-l-oa G-U-i-l-tt G-U-i-m G-U-i-m-aaf G-U-i-m-aar G-U-i-m-ag G-U-i-m-ast
G-U-i-m-atf G-U-i-m-etf G-U-i-o G-U-i-p G-U-i-p-acf G-U-i-p-ach G-U-i-p-act G-U-i-p-atc G-U-i-p-bh
G-U-i-p-cah G-U-i-p-cc G-U-i-p-cce G-U-i-p-dat G-U-i-p-dmm G-U-i-p-dmr G-U-i-p-dmt G-U-i-p-drt G-U-i-p-dt
G-U-i-p-dtf G-U-i-p-dtn G-U-i-p-epr G-U-i-p-es G-U-i-p-fbt G-U-i-p-gen G-U-i-p-hel G-U-i-p-hem G-U-i-p-htc
G-U-i-p-ltc G-U-i-p-tb G-U-i-p-td G-U-i-p-tg G-U-i-p-tt G-U-i-p-wd G-U-i-p-wll G-U-i-p-wlm G-U-i-p-wls
G-U-i-p-wpt G-U-i-p-wt G-U-i-s G-U-i-s-ar G-U-i-s-ast G-U-i-s-cas G-U-i-s-cav G-U-i-s-cdr G-U-i-s-clc
G-U-i-s-col G-U-i-s-cwa G-U-i-s-cwi G-U-i-s-cwt G-U-i-s-mnt G-U-i-s-mt G-U-i-s-rdf G-U-i-s-sfd G-U-i-s-uis
G-U-i-s-utf G-U-i-s-wi S S-C S-C-A S-C-A-L-A S-C-A-L-C S-C-A-L-S S-C-H S-C-L S-C-L-B-B S-C-L-C-C S-C-L-C-V
S-C-L-D-D S-C-L-F-F S-C-M S-C-M-M-A S-C-M-M-D S-C-M-M-H S-C-M-M-L S-C-M-M-S S-C-P S-C-P-S-B S-C-P-S-U S-G
S-G-C S-G-G S-G-T S-G-U S-N S-N-F S-N-H S-N-I S-N-M S-N-N S-N-N-R S-N-R S-N-S S-O S-S S-S-A S-S-P S-X S-X-F
S-X-F-D-F S-X-F-D-R S-X-F-T-R S-X-H S-X-L S-X-M S-X-M-C S-X-M-F S-X-M-H S-X-M-O S-X-M-P S-X-M-R S-X-M-T-O
S-X-M-T-U S-X-R U U-N U-N-D U-S U-S-C U-S-N U-S-O U-S-S U-S-S-A U-S-U U-W U-W-D U-W-D-M U-W-M U-W-M-D
U-W-M-F U-W-M-F-D U-W-M-G U-W-M-G-D U-W-M-M U-W-M-M-D U-W-M-O U-W-M-O-D U-W-T X X-i X-i-c X-i-e X-i-f
X-i-f-h X-i-f-n X-i-f-n-h X-i-f-n-s X-i-f-o X-i-f-p X-i-f-r X-i-f-s X-i-f-w X-i-g X-i-g-a X-i-g-e X-i-g-e-a
X-i-g-e-e X-i-g-l X-i-g-s X-i-g-v X-i-g-v-e X-i-g-v-t X-i-h X-i-i X-i-l X-i-l-c X-i-l-c-d X-i-l-c-p
X-i-l-c-r X-i-l-l X-i-l-l-b X-i-l-l-b-e X-i-l-l-b-t X-i-l-l-l X-i-l-l-p X-i-l-l-s X-i-m X-i-m-a X-i-m-c
X-i-m-d X-i-m-f X-i-m-g X-i-m-h X-i-m-i X-i-m-n X-i-m-r X-i-m-s X-i-m-t X-i-m-u X-i-m-z X-i-o X-i-r X-i-s
X-i-t X-i-t-a X-i-t-a-a X-i-t-a-h X-i-t-m X-i-t-m-a X-i-t-m-h X-i-t-r X-i-t-r-a X-i-t-r-h X-i-t-v X-i-t-v-a
X-i-t-v-h
`;

/** The listed tails below the affiliation, e.g. `A-M-H-A`, `G-E-V`, `S-C-L-D-D`. */
export const LISTED_COT_TAILS: ReadonlySet<string> = new Set(TAILS.trim().split(/\s+/));
