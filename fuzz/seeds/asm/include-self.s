.include "include-self.s"
s_nop 0
