# 1 "/dev/zero"
header h { bit<8> a }
